import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { NETWORKS, type Network, type WalletChallenge } from '../../backend/api';
import { BusyButton } from '../../components/buttons';
import { EmptyState, ErrorNotice, Progress, SuccessNotice } from '../../components/feedback';
import { useAction, useLoad, when } from '../../lib/hooks';
import { useAccount } from '../../session';
import { DataTable } from '../../components/table-head';

/**
 * Receiving wallets (`GET /wallets`), added by proving control: `POST /wallets/challenges` gives a one-time message,
 * the merchant signs it in the wallet (EIP-191 `personal_sign` on EVM networks, ed25519 `signMessage` on Solana) and
 * pastes the signature, `POST /wallets/verify` checks it (docs/proof.md "Wallet verification").
 */
export function MerchantWalletsPage() {
  const { api } = useAccount('merchant');
  const ids = useId();
  const wallets = useLoad(useCallback(() => api.get('/api/integrations/wallets'), [api]));
  const ask = useAction();
  const verify = useAction();
  const [network, setNetwork] = useState<Network>('base');
  const [address, setAddress] = useState('');
  const [label, setLabel] = useState('');
  const [challenge, setChallenge] = useState<WalletChallenge | null>(null);
  const [signature, setSignature] = useState('');
  const [done, setDone] = useState<string | null>(null);

  const start = async (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    verify.clear();
    const got = await ask.run(() =>
      api.post('/api/integrations/wallets/challenges', {
        body: {
          network,
          address: address.trim(),
          ...(label.trim() ? { label: label.trim() } : {}),
        },
      }),
    );
    if (got) {
      setChallenge(got);
      setSignature('');
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!challenge) return;
    const wallet = await verify.run(() =>
      api.post('/api/integrations/wallets/verify', {
        body: { challenge_id: challenge.id, signature: signature.trim() },
      }),
    );
    if (wallet) {
      setChallenge(null);
      setAddress('');
      setLabel('');
      setDone(
        `Wallet ${wallet.address} on ${wallet.network} is verified: it can receive payment requests and invoices.`,
      );
      await wallets.reload();
    }
  };

  const list = wallets.data?.data ?? [];
  return (
    <>
      <section aria-labelledby={`${ids}-add`} className="card">
        <h2 id={`${ids}-add`}>Add a receiving wallet</h2>
        <p className="hint">
          You prove that the wallet is yours by signing a one-time message in it. Signing moves no funds and costs
          nothing. Payments go straight to this wallet; we never hold them.
        </p>
        <form className="form" onSubmit={(e) => void start(e)}>
          <div className="field">
            <label htmlFor={`${ids}-network`}>Network</label>
            <select id={`${ids}-network`} value={network} onChange={(e) => setNetwork(e.target.value as Network)}>
              {NETWORKS.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${ids}-address`}>Wallet address</label>
            <input
              id={`${ids}-address`}
              value={address}
              onChange={(e) => setAddress(e.target.value)}
              required
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${ids}-address-hint`}
            />
            <p id={`${ids}-address-hint`} className="hint">
              {network === 'solana'
                ? 'The owner address (base58), not a token account.'
                : 'An address starting with 0x (40 hexadecimal characters).'}
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${ids}-label`}>Label (optional)</label>
            <input
              id={`${ids}-label`}
              value={label}
              onChange={(e) => setLabel(e.target.value)}
              maxLength={120}
              autoComplete="off"
            />
          </div>
          <BusyButton type="submit" className="primary" busy={ask.busy} busyLabel="Preparing the message…">
            Get the message to sign
          </BusyButton>
        </form>
        <ErrorNotice error={ask.error} title="Could not start the verification" />
      </section>

      {challenge && (
        <SignChallenge
          challenge={challenge}
          signature={signature}
          setSignature={setSignature}
          busy={verify.busy}
          onSubmit={submit}
          onCancel={() => setChallenge(null)}
        />
      )}
      <ErrorNotice error={verify.error} title="The wallet was not verified" />

      <section aria-labelledby={`${ids}-list`}>
        <h2 id={`${ids}-list`}>Your wallets</h2>
        {done && <SuccessNotice>{done}</SuccessNotice>}
        <ErrorNotice error={wallets.error} title="Could not load your wallets" />
        {wallets.loading && !wallets.data && <Progress label="Loading wallets…" />}
        {wallets.data && list.length === 0 && (
          <EmptyState title="No receiving wallet yet">
            Add one above: payment requests and invoices are paid into a verified wallet of yours.
          </EmptyState>
        )}
        {list.length > 0 && (
          <DataTable caption="Receiving wallets" columns={['Address', 'Network', 'Label', 'Verified']}>
            <tbody>
              {list.map((w) => (
                <tr key={w.id}>
                  <th scope="row" className="wrap">
                    <code>{w.address}</code>
                  </th>
                  <td>{w.network}</td>
                  <td className="wrap">{w.label ?? '—'}</td>
                  <td>
                    {w.verified_at ? <span className="badge badge-active">verified {when(w.verified_at)}</span> : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
        <p className="hint">
          Cannot sign with this wallet (for example a custody account)? Support can add a wallet after checking that it
          is yours.
        </p>
      </section>
    </>
  );
}

function SignChallenge({
  challenge,
  signature,
  setSignature,
  busy,
  onSubmit,
  onCancel,
}: {
  challenge: WalletChallenge;
  signature: string;
  setSignature: (s: string) => void;
  busy: boolean;
  onSubmit: (e: FormEvent) => Promise<void>;
  onCancel: () => void;
}) {
  const ids = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => heading.current?.focus(), [challenge.id]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(challenge.message);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const evm = challenge.network !== 'solana';
  return (
    <section aria-labelledby={`${ids}-sign`} className="secret">
      <h2 id={`${ids}-sign`} tabIndex={-1} ref={heading}>
        Sign this message with {challenge.address}
      </h2>
      <p>
        Sign the message below exactly as it is, in the wallet {challenge.label ? `"${challenge.label}" ` : ''}on{' '}
        {challenge.network}
        {evm ? ' ("Sign message", personal_sign)' : ' (signMessage)'}, then paste the signature. The message can be used
        once, until {when(challenge.expires_at)}.
      </p>
      <label htmlFor={`${ids}-message`}>Message to sign</label>
      <textarea
        id={`${ids}-message`}
        className="secret-value"
        readOnly
        rows={12}
        value={challenge.message}
        onFocus={(e) => e.currentTarget.select()}
      />
      <p>
        <button type="button" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy the message'}
        </button>
      </p>
      <form className="form" onSubmit={(e) => void onSubmit(e)}>
        <div className="field">
          <label htmlFor={`${ids}-signature`}>Signature</label>
          <textarea
            id={`${ids}-signature`}
            className="secret-value"
            rows={3}
            value={signature}
            onChange={(e) => setSignature(e.target.value)}
            required
            spellCheck={false}
            aria-describedby={`${ids}-signature-hint`}
          />
          <p id={`${ids}-signature-hint`} className="hint">
            {evm ? '0x followed by 130 hexadecimal characters.' : '64 bytes in base58.'}
          </p>
        </div>
        <div className="actions">
          <BusyButton type="submit" className="primary" busy={busy} busyLabel="Checking the signature…">
            Verify wallet
          </BusyButton>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
