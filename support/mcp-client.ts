import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { x402Client } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { privateKeyToAccount } from 'viem/accounts';
import type { EvmAccount } from './evm-node.js';

/** The official MCP SDK client, connected to `{baseUrl}/mcp` over Streamable HTTP. */
export async function connectMcp(baseUrl: string): Promise<Client> {
  const client = new Client({ name: 'paycore-test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`)));
  return client;
}

/** The x402 PaymentRequired of a tool result (structuredContent first, then content[0].text), as the MCP transport spec reads it. */
export function paymentRequiredOf(result: CallToolResult): PaymentRequired | null {
  if (!result.isError) return null;
  const structured = result.structuredContent as Partial<PaymentRequired> | undefined;
  if (structured?.x402Version && Array.isArray(structured.accepts)) return structured as PaymentRequired;
  const first = result.content[0];
  if (first?.type !== 'text') return null;
  try {
    const parsed = JSON.parse(first.text) as Partial<PaymentRequired>;
    return parsed.x402Version && Array.isArray(parsed.accepts) ? (parsed as PaymentRequired) : null;
  } catch {
    return null;
  }
}

/**
 * An MCP client with an x402 wallet (the x402 MCP transport, tool-result binding): calls a tool, and when the
 * result asks for payment, signs the exact fee with `account` and repeats the same tool and arguments with the
 * payment in params._meta["x402/payment"]. Records every payment it made.
 */
export function payingMcpClient(client: Client, account: EvmAccount) {
  const wallet = new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(account.privateKey)));
  const payments: PaymentPayload[] = [];
  const call = (name: string, args: Record<string, string>, payment?: PaymentPayload) =>
    client.callTool({
      name,
      arguments: args,
      ...(payment ? { _meta: { 'x402/payment': payment } } : {}),
    }) as Promise<CallToolResult>;
  return {
    payments,
    call,
    /** A new payment for `name`'s challenge, not yet presented. */
    async sign(name: string, args: Record<string, string>): Promise<PaymentPayload> {
      const required = paymentRequiredOf(await call(name, args));
      if (!required) throw new Error(`${name} did not ask for payment`);
      return wallet.createPaymentPayload(required);
    },
    async callPaid(name: string, args: Record<string, string>): Promise<CallToolResult> {
      const first = await call(name, args);
      const required = paymentRequiredOf(first);
      if (!required) return first;
      const payment = await wallet.createPaymentPayload(required);
      payments.push(payment);
      return call(name, args, payment);
    },
  };
}
