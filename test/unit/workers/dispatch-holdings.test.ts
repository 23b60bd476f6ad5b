import { describe, expect, it } from 'vitest';
import type { ClaimedDelivery } from '../../../db/repositories/webhook-dispatch.repo.js';
import { DispatchHoldings } from '../../../workers/webhook-dispatch/holdings.js';

/** A claimed row with only what the holdings read: its delivery id, its destination and that destination's tenant. */
const row = (id: string, endpoint: string, tenant: string) =>
  ({ delivery: { id }, endpoint: { id: endpoint, tenantId: tenant } }) as unknown as ClaimedDelivery;

describe('DispatchHoldings: what one webhook dispatcher holds', () => {
  it("counts rows per destination and per tenant, sending or waiting, and sends within each destination's cap", () => {
    const h = new DispatchHoldings();
    for (const r of [
      row('d1', 'e1', 't1'),
      row('d2', 'e1', 't1'),
      row('d3', 'e1', 't1'),
      row('d4', 'e2', 't1'),
      row('d5', 'e3', 't2'),
    ])
      h.add(r);
    expect(h.held).toBe(5);
    expect(h.heldIds().sort()).toEqual(['d1', 'd2', 'd3', 'd4', 'd5']);
    expect(Object.fromEntries(h.perDestination())).toEqual({ e1: 3, e2: 1, e3: 1 });
    expect(Object.fromEntries(h.perTenant())).toEqual({ t1: 4, t2: 1 });

    // Two slots per destination: e1 sends d1 and d2 in claim order; d3 waits.
    expect(h.takeNext('e1', 2)?.delivery.id).toBe('d1');
    expect(h.takeNext('e1', 2)?.delivery.id).toBe('d2');
    expect(h.takeNext('e1', 2)).toBeNull();
    expect(h.ranOut('e1')).toBe(false);

    // The receiver answered d1: its slot takes d3; nothing waits at e1 any more, so more may be claimed for it.
    h.freeSlot('e1');
    expect(h.takeNext('e1', 2)?.delivery.id).toBe('d3');
    expect(h.ranOut('e1')).toBe(true);
    // Still two POSTs in flight there: counted for the destination and the tenant, and the destination is kept.
    expect(h.perDestination().get('e1')).toBe(2);
    expect(h.perTenant().get('t1')).toBe(3);

    // d1 recorded: it holds nothing of the process; an answered POST holds nothing of its destination or tenant.
    h.release('d1');
    expect(h.held).toBe(4);
    expect(h.heldIds()).not.toContain('d1');
  });

  it('forgets a destination once nothing of it waits or is in flight', () => {
    const h = new DispatchHoldings();
    h.add(row('d1', 'e1', 't1'));
    expect(h.takeNext('e1', 1)?.delivery.id).toBe('d1');
    h.freeSlot('e1');
    expect(h.ranOut('e1')).toBe(true);
    h.release('d1');
    expect(h.perDestination().size).toBe(0);
    expect(h.perTenant().size).toBe(0);
    expect(h.held).toBe(0);
    expect(h.takeNext('e1', 1)).toBeNull();
  });
});
