import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A throw-away certificate authority made with the openssl CLI, for TLS servers on loopback. Leaf certificates
 * get explicit validity dates (`openssl ca -startdate/-enddate`), so a test can have an expired or a not yet
 * valid certificate without touching any clock.
 */
export interface IssuedCertificate {
  key: string;
  cert: string;
}

export interface TestCa {
  dir: string;
  caFile: string;
  caPem: string;
  issue(opts: { names: string[]; notBefore: Date; notAfter: Date }): IssuedCertificate;
  selfSigned(names: string[]): IssuedCertificate;
  remove(): void;
}

const openssl = (args: string[], cwd: string) =>
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });

/** YYYYMMDDHHMMSSZ, the GeneralizedTime form `openssl ca` accepts. */
const asn1Time = (d: Date) => `${d.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;

export function createTestCa(): TestCa {
  const dir = mkdtempSync(path.join(tmpdir(), 'paycore-test-ca-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(
    [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-subj',
      '/CN=paycore test CA',
      '-days',
      '30',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
  writeFileSync(path.join(dir, 'index.txt'), '');
  writeFileSync(path.join(dir, 'serial'), '1000\n');
  writeFileSync(
    path.join(dir, 'ca.cnf'),
    [
      '[ ca ]',
      'default_ca = test_ca',
      '[ test_ca ]',
      `dir = ${dir}`,
      'database = $dir/index.txt',
      'new_certs_dir = $dir',
      'serial = $dir/serial',
      'certificate = $dir/ca.crt',
      'private_key = $dir/ca.key',
      'default_md = sha256',
      'policy = any_name',
      'unique_subject = no',
      'copy_extensions = none',
      'email_in_dn = no',
      '[ any_name ]',
      'commonName = supplied',
    ].join('\n'),
  );
  let n = 0;
  const caFile = path.join(dir, 'ca.crt');
  return {
    dir,
    caFile,
    caPem: readFileSync(caFile, 'utf8'),
    issue({ names, notBefore, notAfter }) {
      n += 1;
      const base = `leaf${n}`;
      openssl(['req', '-new', ...ec, '-keyout', `${base}.key`, '-out', `${base}.csr`, '-subj', `/CN=${names[0]}`], dir);
      writeFileSync(
        path.join(dir, `${base}.ext`),
        `[ leaf ]\nbasicConstraints = critical,CA:FALSE\nkeyUsage = critical,digitalSignature\nextendedKeyUsage = serverAuth\nsubjectAltName = ${names.map((d) => `DNS:${d}`).join(',')}\n`,
      );
      openssl(
        [
          'ca',
          '-batch',
          '-notext',
          '-config',
          'ca.cnf',
          '-in',
          `${base}.csr`,
          '-out',
          `${base}.crt`,
          '-startdate',
          asn1Time(notBefore),
          '-enddate',
          asn1Time(notAfter),
          '-extfile',
          `${base}.ext`,
          '-extensions',
          'leaf',
        ],
        dir,
      );
      return {
        key: readFileSync(path.join(dir, `${base}.key`), 'utf8'),
        cert: readFileSync(path.join(dir, `${base}.crt`), 'utf8'),
      };
    },
    selfSigned(names) {
      n += 1;
      const base = `self${n}`;
      openssl(
        [
          'req',
          '-x509',
          ...ec,
          '-keyout',
          `${base}.key`,
          '-out',
          `${base}.crt`,
          '-subj',
          `/CN=${names[0]}`,
          '-days',
          '30',
          '-addext',
          `subjectAltName=${names.map((d) => `DNS:${d}`).join(',')}`,
        ],
        dir,
      );
      return {
        key: readFileSync(path.join(dir, `${base}.key`), 'utf8'),
        cert: readFileSync(path.join(dir, `${base}.crt`), 'utf8'),
      };
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
