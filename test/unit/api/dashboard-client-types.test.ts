import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The dashboard's calls are typed by the client types generated from the OpenAPI documents (ARCHITECTURE.md rule 7,
 * web/src/backend/generated/): a response shape that changes in a document breaks the dashboard's typecheck, not a
 * browser journey. Proved here by typechecking web/ (as `npx tsc -p web/tsconfig.json --noEmit` does) with the
 * committed generated files, then with one response field renamed in each: the first is clean, each probe fails in
 * the page that reads the field.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const web = join(root, 'web');

function typecheck(replace: Record<string, (text: string) => string> = {}): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(web, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => {
    const text = readFile(file);
    const edit = Object.entries(replace).find(([suffix]) => file.endsWith(suffix))?.[1];
    return text !== undefined && edit ? edit(text) : text;
  };
  const program = ts.createProgram(config.fileNames, config.options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file ? d.file.fileName.slice(root.length) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
}

/** Renames a property of one component schema (`        Name: {` … its first `property:`) in generated types. */
function renameProperty(component: string, property: string, to: string) {
  return (text: string): string => {
    const start = text.indexOf(`\n        ${component}: {\n`);
    if (start < 0) throw new Error(`no component ${component}`);
    const at = text.indexOf(`\n            ${property}: `, start);
    if (at < 0) throw new Error(`no ${property} in ${component}`);
    return `${text.slice(0, at)}\n            ${to}: ${text.slice(at + `\n            ${property}: `.length)}`;
  };
}

describe("the dashboard's client is typed by the generated OpenAPI types", () => {
  it('typechecks as committed', { timeout: 120_000 }, () => {
    expect(readFileSync(join(web, 'src/backend/generated/company.ts'), 'utf8')).toContain('export interface paths');
    expect(typecheck()).toEqual([]);
  });

  it('a response field renamed in a document breaks the pages that read it', { timeout: 120_000 }, () => {
    const errors = typecheck({
      'web/src/backend/generated/company.ts': renameProperty('Job', 'status', 'state'),
      'web/src/backend/generated/integrations.ts': renameProperty('PaymentRequest', 'amount_usdc', 'amount'),
    });
    expect(errors.some((e) => e.startsWith('web/src/pages/company/jobs.tsx') && e.includes("'status'"))).toBe(true);
    expect(errors.some((e) => e.startsWith('web/src/pages/merchant/') && e.includes("'amount_usdc'"))).toBe(true);
  });
});
