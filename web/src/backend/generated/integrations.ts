/**
 * Generated from docs/openapi/integrations.json by openapi-typescript (npm run openapi:generate); never edit by hand.
 */

export interface paths {
    "/api/integrations/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who is signed in */
        get: operations["getSession"];
        put?: never;
        /**
         * Sign in
         * @description Sets the session cookie `__Host-paycore_session` (HttpOnly, Secure, SameSite=Strict, Path=/) and returns the CSRF token every mutation must send as `X-CSRF-Token`. A wrong address and a wrong password get the same 401. Attempts per address are limited. Needs an allowed `Origin`; no Idempotency-Key.
         */
        post: operations["signIn"];
        /** Sign out */
        delete: operations["signOut"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Account overview: entitlements, keys, destinations, event types */
        get: operations["getOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Plan, limits, usage and prices
         * @description Answers without an active plan or trial too (so a lapsed account can buy one). `purchase_networks` lists where the platform accepts payment; empty: purchases are granted by an operator.
         */
        get: operations["getPlan"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/plan/purchases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Plan purchases */
        get: operations["listPlanPurchases"];
        put?: never;
        /**
         * Buy or renew a plan (30 days, paid in USDC)
         * @description A payment request to the platform's receiving wallet, payable for 24 hours from `payer` only. When the payment watcher confirms the exact amount, 30 days are granted once: from the end of the running paid period (a renewal), else from the confirmation. A lower plan than the one running is refused. Less from `payer` shows as `underpaid`; a payment from another address or after expiry as `review`; neither grants anything.
         */
        post: operations["buyPlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/plan/purchases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A plan purchase */
        get: operations["getPlanPurchase"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an API key
         * @description An `skp_` key for `/proof/v1`; the secret is in this response only (a replay answers `secret: null`). Within the plan's active keys (422 `limit_reached`). `expires_at`: Unix seconds, at most 366 days ahead.
         */
        post: operations["createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/keys/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke an API key */
        post: operations["revokeKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a webhook destination
         * @description A public HTTPS URL (the destination policy of spec section 6) and the event types it receives (a non-empty list, no repeats). The signing secret is in this response only.
         */
        post: operations["createDestination"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/webhooks/{id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Disable a destination (final) */
        post: operations["disableDestination"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/webhooks/{id}/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Delete a destination (soft) */
        post: operations["deleteDestination"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/webhooks/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate a destination's signing secret */
        post: operations["rotateDestination"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Delivery history */
        get: operations["listDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/deliveries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A delivery with every attempt */
        get: operations["getDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/deliveries/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a failed delivery
         * @description The same delivery (ids, bytes) goes on from its next attempt: the remaining budget, not a new one. Only a `failed` delivery with attempts left to an enabled destination the plan allows (else 409 `invalid_retry_state`).
         */
        post: operations["retryDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/wallets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Verified receiving wallets */
        get: operations["listWallets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/wallets/challenges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for a wallet challenge
         * @description A one-time message bound to your account, the network and the address, with a random nonce; sign it in the wallet within 10 minutes and send the signature to `POST /wallets/verify`. No private key is ever sent. A wallet verified by another account is refused (409).
         */
        post: operations["createWalletChallenge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/wallets/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify a wallet by its signature of the challenge
         * @description EVM networks: the 65-byte EIP-191 `personal_sign` signature as 0x hex. Solana: the 64-byte ed25519 signature in base58. The challenge must be yours, unexpired and unused (422 `challenge_invalid`); a wrong or malformed signature is 422 `signature_invalid` and leaves the challenge usable until it expires. Verified: the challenge is used and the wallet can receive payment requests.
         */
        post: operations["verifyWallet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List payment requests */
        get: operations["listPaymentRequests"];
        put?: never;
        /**
         * Create a payment request
         * @description The `POST /proof/v1/requests` handler: same body, rules, quota and answer.
         */
        post: operations["createPaymentRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/requests/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A payment request */
        get: operations["getPaymentRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Requests in REVIEW, with reason and evidence
         * @description Your requests in `REVIEW` (in descending id order; ids are random, so not by date), each with `review_reason` (`unexpected_payer`, `after_expiry`, `invoice_voided`) and every transfer the payment watcher attributed to it.
         */
        get: operations["listReviews"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List contacts */
        get: operations["listContacts"];
        put?: never;
        /** Create a contact */
        post: operations["createContact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/contacts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A contact */
        get: operations["getContact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List invoices */
        get: operations["listInvoices"];
        put?: never;
        /**
         * Issue an invoice
         * @description The `POST /proof/v1/invoices` handler: one payment request for the total, the document rendered once, no e-mail.
         */
        post: operations["createInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/invoices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An invoice */
        get: operations["getInvoice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/invoices/{id}/document": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the issued invoice PDF
         * @description The document as rendered once at issue, checked against `document_sha256` before it is sent (never rendered again). A dashboard download: `/proof/v1` has no PDF route.
         */
        get: operations["getInvoiceDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/invoices/{id}/void": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Void an invoice, with a reason
         * @description Its payment request becomes `VOIDED` (its amount is free again), `invoice.voided` is emitted, the quota is not restored. The reason (at most 500 characters) is stored for you and operators, never in an event. Voiding a voided invoice answers it unchanged; a paid invoice is 409.
         */
        post: operations["voidInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Events after a cursor
         * @description The `GET /proof/v1/events` handler: the stored event bytes, oldest first.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI document */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document as a page */
        get: operations["getDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Body of `POST /proof/v1/requests`, validated strictly: an unknown field (e.g. a custom receiver) is a 422. */
        PaymentRequestCreate: {
            /** @description One of the verified wallets of `GET /proof/v1/me`; the request is paid to its address on its network. Any other well-formed id is 404. */
            wallet_id: string;
            /** @description Requested amount in USDC, greater than zero and at most 10000000000000000 USDC (10^16), so that the amount plus its matching delta always has at most 17 integer digits: 1 to 17 integer digits, optionally a dot and 1 to 6 fraction digits (no sign, exponent or separators). */
            amount_usdc: string;
            /** @description What the payment is for, shown on the payment page; 3 to 350 characters after trimming. */
            description: string;
            /** @description Optional label of the payer shown on the payment page; at most 120 characters after trimming. `null` is the same as leaving it out. */
            customer_label?: string | null;
            /** @description Optional address of the wallet expected to pay, checked by the server against the network of `wallet_id` (422 naming `expected_payer`): on EVM networks `0x` and 40 hex characters, all lower case, all upper case or with a valid EIP-55 checksum (mixed case that does not match is refused), never the zero address; on Solana a base58 public key of 32 bytes (the owner, not a token account), never the all-zero key. A payment from another address goes to `REVIEW`. `null` is the same as leaving it out. */
            expected_payer?: string | null;
            /** @description Hours the request stays open (default 72); the plan may allow less (a trial: 72). */
            valid_hours?: number;
        };
        /** @description Body of `POST /proof/v1/contacts`, validated strictly. There is no public update or delete. */
        ContactCreate: {
            /** @description Legal name of the buyer; 1 to 160 characters after trimming. */
            legal_name: string & (unknown & unknown);
            /** @description Billing address, e.g. `billing@example.com`: at most 254 characters after trimming; stored with the domain lower-cased. */
            email: string & (unknown & unknown);
            /** @description Optional postal address; at most 600 characters after trimming. `null` is the same as leaving it out. */
            address?: string | null;
            /** @description Optional reference of yours, e.g. a customer number; at most 120 characters after trimming. `null` is the same as leaving it out. */
            reference?: string | null;
        };
        /** @description Body of `POST /proof/v1/invoices`, validated strictly; every problem is reported at once. `tax_rate` is required with `tax_mode` `exclusive` or `inclusive` and refused otherwise; `tax_usdc` is required with `fixed` and refused otherwise. Checked by the server beyond this schema: the contact and wallet belong to your account (404 otherwise), `due_date` is not before today (UTC) and not past the plan's longest payment window (`max_valid_hours` of `/v1/me`), and the total is greater than zero and at most 10000000000000000 USDC (10^16), so that the amount plus its matching delta always has at most 17 integer digits (422 naming `items`). `null` is accepted as absent for `tax_rate`, `tax_notes`, `accounting` and `memo` (responses show them as `null`). */
        InvoiceCreate: {
            /** @description The buyer: one of your contacts. Any other well-formed id is 404. */
            customer_id: string;
            /** @description One of the verified wallets of `GET /proof/v1/me`. Any other well-formed id is 404. */
            wallet_id: string;
            /**
             * Format: date
             * @description A calendar date `YYYY-MM-DD`, not before today (UTC). The invoice's payment request stays open until the end of that day (23:59:59 UTC), so its payment page never expires while the invoice is due; a due date whose end is more than the plan's `max_valid_hours` ahead (720 hours, a trial 72) is refused (422 naming `due_date`, with the latest allowed date).
             */
            due_date: string;
            items: components["schemas"]["InvoiceItemInput"][];
            /**
             * @description `none` (default), `exclusive` (tax added to the subtotal), `inclusive` (tax contained in the subtotal), `fixed` (`tax_usdc` added).
             * @enum {string}
             */
            tax_mode?: "none" | "exclusive" | "inclusive" | "fixed";
            /** @description Percentage 0 to 100 with up to 4 fraction digits, e.g. `"19"`. `null` is the same as leaving it out. */
            tax_rate?: string | null;
            /** @description Fixed tax amount in USDC; at most 10000000000000000 USDC (10^16), so that the amount plus its matching delta always has at most 17 integer digits. */
            tax_usdc?: string;
            /** @description Optional tax note printed on the invoice (e.g. reverse charge); at most 500 characters after trimming. `null` is the same as leaving it out. */
            tax_notes?: string | null;
            /** @description Optional references printed on the invoice: `reference`, `cost_center`, `ledger_account`, each at most 120 characters; no other key. `null` is the same as leaving it out. */
            accounting?: {
                /** @description Your reference; at most 120 characters after trimming (empty means absent). */
                reference?: string;
                /** @description Cost center; at most 120 characters after trimming (empty means absent). */
                cost_center?: string;
                /** @description Ledger account; at most 120 characters after trimming (empty means absent). */
                ledger_account?: string;
            } | null;
            /**
             * @description Only `false` is accepted: an invoice is never e-mailed on creation; use `POST /proof/v1/invoices/{id}/send`.
             * @constant
             */
            send_now?: false;
            /** @description Optional note printed on the invoice; at most 1,000 characters after trimming. `null` is the same as leaving it out. */
            memo?: string | null;
        } & (unknown & unknown);
        InvoiceItemInput: {
            /** @description What was delivered; 1 to 300 characters after trimming. */
            description: string & (unknown & unknown);
            /** @description Decimal string greater than 0 and at most 1,000,000, up to 6 fraction digits, e.g. `"3"` or `"0.5"`. */
            quantity: string;
            /** @description Unit price in USDC: 1 to 17 integer digits, optionally a dot and 1 to 6 fraction digits; at most 10000000000000000 USDC (10^16), so that the amount plus its matching delta always has at most 17 integer digits. */
            unit_usdc: string;
        };
        /** @description Your assertion that a person approved sending this invoice by e-mail to the contact; it is stored with the key that sent it. */
        InvoiceSend: {
            /** @constant */
            user_approved: true;
        };
        SignIn: {
            email: string & (unknown & unknown);
            password: string;
        };
        PlanPurchaseCreate: {
            /** @enum {string} */
            network: "base" | "polygon" | "arbitrum" | "optimism" | "ethereum" | "avalanche" | "solana";
            /** @description The wallet you will pay from (EVM: 0x and 40 hex, EIP-55 if mixed case; Solana: base58 owner address). */
            payer: string;
            /** @enum {string} */
            plan: "starter" | "business" | "pro";
        };
        KeyCreate: {
            /** @description A name for the key, 1 to 80 characters after trimming. */
            name: string;
            scopes: ("read" | "write")[];
            expires_at?: number;
        };
        DestinationCreate: {
            /** @description The destination URL (at most 2048 characters after trimming). */
            url: string & (unknown & unknown);
            events: ("payment_request.created" | "invoice.issued" | "invoice.voided" | "payment.confirmed" | "invoice.paid")[];
        };
        WalletChallengeCreate: {
            /** @enum {string} */
            network: "base" | "polygon" | "arbitrum" | "optimism" | "ethereum" | "avalanche" | "solana";
            address: string;
            /** @description An optional label, 1 to 80 characters after trimming; null for none. */
            label?: string | null;
        };
        WalletVerify: {
            challenge_id: string;
            signature: string;
        };
        InvoiceVoid: {
            /** @description Why, at most 500 characters after trimming; empty or null for none. */
            reason?: string | null;
        };
        /** @description Account id: `mer_` and 20 letters or digits. */
        MerchantId: string;
        /** @description Verified wallet id: `wal_` and 20 letters or digits. */
        WalletId: string;
        /** @description Payment request id: `req_` and 20 letters or digits. */
        RequestId: string;
        /** @description Contact id: `con_` and 20 letters or digits. */
        ContactId: string;
        /** @description Invoice id: `inv_` and 20 letters or digits. */
        InvoiceId: string;
        /**
         * @description Network of the native USDC transfer.
         * @enum {string}
         */
        Network: "base" | "polygon" | "arbitrum" | "optimism" | "ethereum" | "avalanche" | "solana";
        /**
         * @description `AWAITING`: Open: waiting for a transfer of exactly `amount_atomic`. `REVIEW`: A transfer was seen and is being reviewed (e.g. from an unexpected payer, or after expiry). Not paid. `PAID`: Confirmed from verified transfer evidence by the service's own matching; final. Reported by `payment.confirmed`. `EXPIRED`: `AWAITING` past `expires_at` without a payment; its amount is free again. `VOIDED`: Its invoice was voided: it can no longer be paid, and a later transfer of its amount goes to `REVIEW`, never to `PAID`. Only `PAID` means paid.
         * @enum {string}
         */
        RequestStatus: "AWAITING" | "REVIEW" | "PAID" | "EXPIRED" | "VOIDED";
        PaymentRequest: {
            id: components["schemas"]["RequestId"];
            /**
             * Format: uri
             * @description The public payment page (`GET /proof/pay/{id}`) to send to the payer.
             */
            url: string;
            status: components["schemas"]["RequestStatus"];
            network: components["schemas"]["Network"];
            wallet_id: components["schemas"]["WalletId"];
            /** @description The receiving address (of the verified wallet). */
            pay_to: string;
            /** @description The exact amount to transfer, in atomic USDC: the quote plus a small unique matching delta (1 to 9,999 atomic units). Show and pay `amount_atomic / 1,000,000`, never a rounded amount. */
            amount_atomic: string;
            /** @description The amount originally requested, in atomic USDC; at most 10000000000000000 USDC (10^16), so that the amount plus its matching delta always has at most 17 integer digits. */
            quoted_amount_atomic: string;
            /** @description `amount_atomic` in USDC with six decimals. */
            amount_usdc: string;
            description: string;
            customer_label: string | null;
            expected_payer: string | null;
            valid_hours: number;
            /**
             * Format: date-time
             * @description End of the payment window.
             */
            expires_at: string;
            /** Format: date-time */
            created_at: string;
            /** @description The invoice this request belongs to; null for a direct request. */
            invoice_id: string | null;
            /** @description The matched transaction once paid; null before. */
            tx_hash: string | null;
            /** @description When the payment was confirmed; null before. */
            verified_at: string | null;
        };
        Contact: {
            id: components["schemas"]["ContactId"];
            legal_name: string;
            email: string;
            address: string | null;
            reference: string | null;
            /** Format: date-time */
            created_at: string;
        };
        /** @description The public invoice: exact totals (rounded half-up at 0.000001 USDC per line, then once on the tax) and the linked payment request. Buyer and issuer identity snapshots and share capabilities are never shown. */
        Invoice: {
            id: components["schemas"]["InvoiceId"];
            /** @description Sequential per account: `INV-000001`, … */
            number: string;
            /**
             * @description `issued`: Issued, with its one payment request open (or expired). `paid`: Its payment request is `PAID`; `invoice.paid` is emitted. `voided`: Voided by the service operator on your request: its payment request becomes `VOIDED`, `invoice.voided` is emitted, and the creation allowance is not restored. The API cannot change it.
             * @enum {string}
             */
            status: "issued" | "paid" | "voided";
            customer_id: components["schemas"]["ContactId"];
            wallet_id: components["schemas"]["WalletId"];
            /** @description Its one payment request (`GET /proof/v1/requests/{id}`, `url` is the payment page). */
            request_id: components["schemas"]["RequestId"];
            network: components["schemas"]["Network"];
            /** Format: date */
            due_date: string;
            /** Format: date-time */
            issued_at: string;
            items: {
                description: string;
                /** @description Normalized: `"1.500"` reads `"1.5"`. */
                quantity: string;
                /** @description Unit price. */
                unit_usdc: string;
                /** @description quantity × unit price, rounded half-up to 0.000001. */
                amount_usdc: string;
            }[];
            /** @description Sum of the item amounts. */
            subtotal_usdc: string;
            /** @enum {string} */
            tax_mode: "none" | "exclusive" | "inclusive" | "fixed";
            /** @description The percentage for `exclusive` and `inclusive`; null otherwise. */
            tax_rate: string | null;
            /** @description The tax. */
            tax_usdc: string;
            tax_notes: string | null;
            /** @description Amount due: subtotal plus tax (`inclusive`: the subtotal). */
            total_usdc: string;
            /** @description The total in atomic USDC; the quote of the payment request. */
            total_atomic: string;
            /** @description The exact amount to pay (the total plus the unique matching delta of its payment request). */
            amount_atomic: string;
            accounting: {
                reference?: string;
                cost_center?: string;
                ledger_account?: string;
            } | null;
            memo: string | null;
            /** @description SHA-256 of the invoice document, rendered once at issue and never changed. */
            document_sha256: string;
            /** @description The paying transaction; null before settlement. */
            tx_hash: string | null;
            paid_at: string | null;
            voided_at: string | null;
        };
        InvoiceSendResult: {
            id: components["schemas"]["InvoiceId"];
            /**
             * @description `queued`: the e-mail waits in the outbox (sent asynchronously; one queued e-mail per invoice). `sent`: it was already sent and is not sent again.
             * @enum {string}
             */
            mail_status: "queued" | "sent";
        };
        Me: {
            /**
             * @description Version of this interface.
             * @constant
             */
            api_version: "1.0";
            id: components["schemas"]["MerchantId"];
            /** @description Account name shown on payment pages and invoices. */
            name: string;
            /** @description The active paid plan, `trial`, or null when neither is active (reads still work; creations answer 422). */
            plan: ("starter" | "business" | "pro" | "trial") | null;
            /** @description End of the paid 30-day period or of the 7-day trial. */
            plan_ends_at: string | null;
            /** @description Limits of the current plan; null without a plan. `null` inside means no cap. */
            limits: {
                /** @description Payment requests (direct or by invoice) per rolling 30 days (a trial: since its start). */
                requests_per_period: number | null;
                invoices_per_period: number | null;
                /** @description Usable API keys. */
                keys: number;
                /** @description Webhook destinations. */
                destinations: number;
                /** @description Longest `valid_hours` of a payment request. */
                max_valid_hours: number;
                /** @description Payment-request creations per hour (pro); null: none beyond the request throttles. */
                requests_per_hour: number | null;
            } | null;
            usage: {
                requests: number;
                invoices: number;
                /** @description Start of the counting window; null without a plan. */
                window_start: string | null;
            };
            /** @description Verified receiving wallets: the only allowed `wallet_id` values. */
            wallets: {
                id: components["schemas"]["WalletId"];
                network: components["schemas"]["Network"];
                address: string;
                label: string | null;
            }[];
        } & unknown;
        PaymentRequestList: {
            /** @description In descending id order (ids are random: not by creation time). */
            data: components["schemas"]["PaymentRequest"][];
            /** @description Pass as `before` for the next page of this list; null when this page is not full (no more). */
            next_cursor: string | null;
        };
        ContactList: {
            /** @description In descending id order (ids are random: not by creation time). */
            data: components["schemas"]["Contact"][];
            /** @description Pass as `before` for the next page of this list; null when this page is not full (no more). */
            next_cursor: string | null;
        };
        InvoiceList: {
            /** @description In descending id order (ids are random: not by creation time). */
            data: components["schemas"]["Invoice"][];
            /** @description Pass as `before` for the next page of this list; null when this page is not full (no more). */
            next_cursor: string | null;
        };
        /** @description Event id: `evt_` and 20 letters or digits; equals the `X-Service-Event-Id` header. Deduplicate on it. */
        EventId: string;
        PaymentRequestCreatedData: {
            request_id: components["schemas"]["RequestId"];
            network: components["schemas"]["Network"];
            /** @description The exact amount to pay (quote plus matching delta), atomic USDC. */
            amount_atomic: string;
            /** @description The requested amount, atomic USDC. */
            quoted_amount_atomic: string;
            /** @constant */
            status: "AWAITING";
        };
        InvoiceEventData: {
            invoice_id: components["schemas"]["InvoiceId"];
            request_id: components["schemas"]["RequestId"];
            number: string;
            /** @enum {string} */
            status: "issued" | "voided" | "paid";
            network: components["schemas"]["Network"];
            /** @description The exact amount to pay of the invoice's payment request, atomic USDC. */
            amount_atomic: string;
            /** @description The paying transaction; null before settlement. */
            tx_hash: string | null;
        };
        PaymentConfirmedData: {
            request_id: components["schemas"]["RequestId"];
            network: components["schemas"]["Network"];
            /** @description The amount paid, atomic USDC. */
            amount_atomic: string;
            /** @description The requested amount, atomic USDC. */
            quoted_amount_atomic: string;
            /** @constant */
            status: "PAID";
            /** @description The matched transaction. */
            tx_hash: string;
            /**
             * Format: date-time
             * @description When the evidence was verified.
             */
            verified_at: string;
        };
        /** @description A payment request was created, directly or by an invoice. */
        PaymentRequestCreatedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description Reject versions you do not support.
             * @constant
             */
            api_version: "1.0";
            /** @constant */
            type: "payment_request.created";
            /** @description Unix seconds. */
            occurred_at: number;
            data: components["schemas"]["PaymentRequestCreatedData"];
        };
        /** @description An invoice was created (after the `payment_request.created` of its request). */
        InvoiceIssuedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description Reject versions you do not support.
             * @constant
             */
            api_version: "1.0";
            /** @constant */
            type: "invoice.issued";
            /** @description Unix seconds. */
            occurred_at: number;
            data: {
                invoice_id: components["schemas"]["InvoiceId"];
                request_id: components["schemas"]["RequestId"];
                number: string;
                /** @constant */
                status: "issued";
                network: components["schemas"]["Network"];
                /** @description The exact amount to pay of the invoice's payment request, atomic USDC. */
                amount_atomic: string;
                /** @description The paying transaction; null before settlement. */
                tx_hash: string | null;
            };
        };
        /** @description An issued invoice was voided (its creation allowance is not restored). */
        InvoiceVoidedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description Reject versions you do not support.
             * @constant
             */
            api_version: "1.0";
            /** @constant */
            type: "invoice.voided";
            /** @description Unix seconds. */
            occurred_at: number;
            data: {
                invoice_id: components["schemas"]["InvoiceId"];
                request_id: components["schemas"]["RequestId"];
                number: string;
                /** @constant */
                status: "voided";
                network: components["schemas"]["Network"];
                /** @description The exact amount to pay of the invoice's payment request, atomic USDC. */
                amount_atomic: string;
                /** @description The paying transaction; null before settlement. */
                tx_hash: string | null;
            };
        };
        /** @description A payment request moved into `PAID` on matching verified transfer evidence. */
        PaymentConfirmedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description Reject versions you do not support.
             * @constant
             */
            api_version: "1.0";
            /** @constant */
            type: "payment.confirmed";
            /** @description Unix seconds. */
            occurred_at: number;
            data: components["schemas"]["PaymentConfirmedData"];
        };
        /** @description The payment request of an invoice moved into `PAID` (emitted together with `payment.confirmed`; count revenue from one of them). */
        InvoicePaidEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description Reject versions you do not support.
             * @constant
             */
            api_version: "1.0";
            /** @constant */
            type: "invoice.paid";
            /** @description Unix seconds. */
            occurred_at: number;
            data: {
                invoice_id: components["schemas"]["InvoiceId"];
                request_id: components["schemas"]["RequestId"];
                number: string;
                /** @constant */
                status: "paid";
                network: components["schemas"]["Network"];
                /** @description The exact amount to pay of the invoice's payment request, atomic USDC. */
                amount_atomic: string;
                /** @description The paying transaction; null before settlement. */
                tx_hash: string | null;
            };
        };
        /** @description An event: the envelope and the `data` of its `type`. Accept unknown additive fields; reject unsupported `api_version` values. */
        Event: components["schemas"]["PaymentRequestCreatedEvent"] | components["schemas"]["InvoiceIssuedEvent"] | components["schemas"]["InvoiceVoidedEvent"] | components["schemas"]["PaymentConfirmedEvent"] | components["schemas"]["InvoicePaidEvent"];
        EventList: {
            /** @description Oldest first; each event's bytes are exactly those of its webhook body. */
            data: {
                /** @description Increasing position in your own event log, numbered per account (it tells nothing about other accounts). */
                cursor: number;
                event: components["schemas"]["Event"];
            }[];
            /** @description Pass as `after` to poll for newer events: the last cursor returned, or `after` itself when nothing is new. */
            next_cursor: number;
        };
        Error: {
            error: string;
            /** @enum {string} */
            code: "invalid_credentials" | "api_key_in_url" | "authorization_header_rejected" | "origin_rejected" | "session_required" | "csrf_failed" | "customer_access_required" | "not_found" | "method_not_allowed" | "conflict" | "invalid_retry_state" | "purchase_unavailable" | "too_many_open_purchases" | "idempotency_conflict" | "idempotency_in_progress" | "payload_too_large" | "unsupported_media_type" | "malformed_json" | "validation_failed" | "idempotency_key_required" | "idempotency_key_invalid" | "quota_exceeded" | "limit_reached" | "challenge_invalid" | "signature_invalid" | "rate_limited" | "internal_error" | "service_unavailable";
            request_id: string;
            issues?: {
                path: string;
                message: string;
            }[];
        };
        SignedIn: {
            /** @description Send it as `X-CSRF-Token` on every mutation. */
            csrf_token: string;
            user: {
                /** @description User id: `usr_` and 20 letters or digits. */
                id: string;
                email: string;
            };
            merchant: {
                /** @description Account id: `mer_` and 20 letters or digits. */
                id: string;
                name: string;
            };
            /** Format: date-time */
            expires_at: string;
        };
        Session: {
            /** @description Send it as `X-CSRF-Token` on every mutation. */
            csrf_token: string;
            user: {
                /** @description User id: `usr_` and 20 letters or digits. */
                id: string;
                email: string;
            };
            merchant: {
                /** @description Account id: `mer_` and 20 letters or digits. */
                id: string;
                name: string;
            };
        };
        Overview: {
            merchant: {
                /** @description Account id: `mer_` and 20 letters or digits. */
                id: string;
                name: string;
            };
            user: {
                /** @description User id: `usr_` and 20 letters or digits. */
                id: string;
                email: string;
            };
            entitlements: {
                plan: ("starter" | "business" | "pro" | "trial") | null;
                ends_at: string | null;
                keys: {
                    limit: number;
                    used: number;
                };
                destinations: {
                    limit: number;
                    used: number;
                };
                requests_per_period: number | null;
                invoices_per_period: number | null;
                usage: {
                    requests: number;
                    invoices: number;
                    window_start: string | null;
                };
            };
            keys: components["schemas"]["Key"][];
            webhooks: components["schemas"]["Destination"][];
            event_types: ("payment_request.created" | "invoice.issued" | "invoice.voided" | "payment.confirmed" | "invoice.paid")[];
        };
        Key: {
            /** @description API key id: `key_` and 20 letters or digits. */
            id: string;
            name: string;
            prefix: string;
            last4: string;
            scopes: ("read" | "write")[];
            /** @enum {string} */
            status: "active" | "revoked" | "expired";
            /** @description False past the plan's limit after a downgrade (and for revoked or expired keys). */
            usable: boolean;
            expires_at: string | null;
            /** Format: date-time */
            created_at: string;
            last_used_at: string | null;
            revoked_at: string | null;
        };
        NewKey: {
            /** @description API key id: `key_` and 20 letters or digits. */
            id: string;
            name: string;
            prefix: string;
            last4: string;
            scopes: ("read" | "write")[];
            /** @enum {string} */
            status: "active" | "revoked" | "expired";
            /** @description False past the plan's limit after a downgrade (and for revoked or expired keys). */
            usable: boolean;
            expires_at: string | null;
            /** Format: date-time */
            created_at: string;
            last_used_at: string | null;
            revoked_at: string | null;
            /** @description Shown once; `null` in a replay. */
            secret: string | null;
        };
        Destination: {
            /** @description Destination id: `whe_` and 20 letters or digits. */
            id: string;
            url: string;
            events: ("payment_request.created" | "invoice.issued" | "invoice.voided" | "payment.confirmed" | "invoice.paid")[];
            /** @enum {string} */
            status: "enabled" | "disabled";
            key_version: number;
            usable: boolean;
            /** Format: date-time */
            created_at: string;
        };
        NewDestination: {
            /** @description Destination id: `whe_` and 20 letters or digits. */
            id: string;
            url: string;
            events: ("payment_request.created" | "invoice.issued" | "invoice.voided" | "payment.confirmed" | "invoice.paid")[];
            /** @enum {string} */
            status: "enabled" | "disabled";
            key_version: number;
            usable: boolean;
            /** Format: date-time */
            created_at: string;
            /** @description The signing secret; shown once, `null` in a replay. */
            secret: string | null;
        };
        RotatedDestination: {
            /** @description Destination id: `whe_` and 20 letters or digits. */
            id: string;
            key_version: number;
            secret: string | null;
        };
        DeletedDestination: {
            /** @description Destination id: `whe_` and 20 letters or digits. */
            id: string;
            /** @constant */
            status: "deleted";
            /** Format: date-time */
            deleted_at: string;
        };
        Delivery: {
            /** @description Delivery id: `dlv_` and 20 letters or digits. */
            id: string;
            /** @description Destination id: `whe_` and 20 letters or digits. */
            endpoint_id: string;
            event_id: string;
            /** @enum {string} */
            event_type: "payment_request.created" | "invoice.issued" | "invoice.voided" | "payment.confirmed" | "invoice.paid";
            /** @enum {string} */
            status: "pending" | "retrying" | "delivered" | "failed";
            attempts: number;
            max_attempts: number;
            next_attempt_at: string | null;
            last_status_code: number | null;
            last_error: string | null;
            /** Format: date-time */
            created_at: string;
            delivered_at: string | null;
            failed_at: string | null;
            /** @description Whether `POST /deliveries/{id}/retry` would be accepted now. */
            retryable: boolean;
        };
        DeliveryPage: {
            /** @description In descending id order (ids are random: not by creation time). */
            data: components["schemas"]["Delivery"][];
            /** @description Pass as `before` for the next page of this list; null when this page is not full (no more). */
            next_cursor: string | null;
        };
        DeliveryDetail: {
            /** @description Delivery id: `dlv_` and 20 letters or digits. */
            id: string;
            /** @description Destination id: `whe_` and 20 letters or digits. */
            endpoint_id: string;
            event_id: string;
            /** @enum {string} */
            event_type: "payment_request.created" | "invoice.issued" | "invoice.voided" | "payment.confirmed" | "invoice.paid";
            /** @enum {string} */
            status: "pending" | "retrying" | "delivered" | "failed";
            attempts: number;
            max_attempts: number;
            next_attempt_at: string | null;
            last_status_code: number | null;
            last_error: string | null;
            /** Format: date-time */
            created_at: string;
            delivered_at: string | null;
            failed_at: string | null;
            /** @description Whether `POST /deliveries/{id}/retry` would be accepted now. */
            retryable: boolean;
            /** @description Every attempt, oldest first: outcome, HTTP status, error class and duration. Never a body. */
            attempts_detail: {
                attempt: number;
                /** @enum {string} */
                outcome: "in_flight" | "delivered" | "retry" | "terminal" | "interrupted";
                status_code: number | null;
                error: string | null;
                duration_ms: number | null;
                key_version: number | null;
                /** Format: date-time */
                started_at: string;
            }[];
        };
        Plan: {
            plan: ("starter" | "business" | "pro" | "trial") | null;
            ends_at: string | null;
            paid_plan: ("starter" | "business" | "pro") | null;
            paid_until: string | null;
            /** @description Paid periods that follow the running one, in the order they run (a lower plan paid while a higher one runs, or the days of a lower plan a higher one was bought over). A payment buys 30 days of the plan it was for, never of a higher one. */
            queued: {
                /** @enum {string} */
                plan: "starter" | "business" | "pro";
                /** Format: date-time */
                starts_at: string;
                /** Format: date-time */
                ends_at: string;
            }[];
            /** @description Limits of the current plan; null without a plan. */
            limits: {
                /** @description Payment requests (direct or by invoice) per rolling 30 days (a trial: since its start). */
                requests_per_period: number | null;
                invoices_per_period: number | null;
                /** @description Usable API keys. */
                keys: number;
                /** @description Webhook destinations. */
                destinations: number;
                /** @description Longest `valid_hours` of a payment request. */
                max_valid_hours: number;
                /** @description Payment-request creations per hour (pro); null: none beyond the request throttles. */
                requests_per_hour: number | null;
            } | null;
            usage: {
                requests: number;
                invoices: number;
                window_start: string | null;
            };
            prices: {
                /** @enum {string} */
                plan: "starter" | "business" | "pro";
                price_usdc: string;
                period_days: number;
            }[];
            trial_days: number;
            purchase_networks: ("base" | "polygon" | "arbitrum" | "optimism" | "ethereum" | "avalanche" | "solana")[];
        };
        Purchase: {
            /** @description Purchase id: `pur_` and 20 letters or digits. */
            id: string;
            /** @enum {string} */
            kind: "plan" | "credits";
            /** @description The plan bought (once paid: the plan the period was granted at). */
            plan: ("starter" | "business" | "pro") | null;
            pack: string | null;
            credits: string | null;
            /**
             * @description `awaiting_payment`: pay `amount_atomic` exactly, from `payer`, before `expires_at`. `paid`: confirmed by the payment watcher and granted (once). `underpaid`: less arrived from `payer` (see `received_atomic`); nothing granted. `review`: a payment from another address or after expiry; nothing granted. `expired`: no payment in time.
             * @enum {string}
             */
            status: "awaiting_payment" | "paid" | "underpaid" | "review" | "expired";
            /** @enum {string} */
            network: "base" | "polygon" | "arbitrum" | "optimism" | "ethereum" | "avalanche" | "solana";
            /** @description The platform's receiving wallet. */
            pay_to: string;
            payer: string;
            price_usdc: string;
            /** @description The exact amount to pay, in atomic USDC: the price plus a small unique matching amount. */
            amount_atomic: string;
            amount_usdc: string;
            /** @description Every transfer the watcher attributed to this purchase, summed. */
            received_atomic: string;
            /**
             * Format: uri
             * @description The public payment page (QR code, exact amount).
             */
            payment_url: string;
            /** @description Payment request of the platform id: `req_` and 20 letters or digits. */
            request_id: string;
            review_reason: string | null;
            tx_hash: string | null;
            paid_at: string | null;
            period_start: string | null;
            period_end: string | null;
            /** Format: date-time */
            expires_at: string;
            /** Format: date-time */
            created_at: string;
        };
        PurchasePage: {
            /** @description In descending id order (ids are random: not by creation time). */
            data: components["schemas"]["Purchase"][];
            /** @description Pass as `before` for the next page of this list; null when this page is not full (no more). */
            next_cursor: string | null;
        };
        Wallet: {
            /** @description Verified wallet id: `wal_` and 20 letters or digits. */
            id: string;
            /** @enum {string} */
            network: "base" | "polygon" | "arbitrum" | "optimism" | "ethereum" | "avalanche" | "solana";
            address: string;
            label: string | null;
            verified_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        WalletList: {
            data: components["schemas"]["Wallet"][];
        };
        WalletChallenge: {
            /** @description Challenge id: `wch_` and 20 letters or digits. */
            id: string;
            /** @enum {string} */
            network: "base" | "polygon" | "arbitrum" | "optimism" | "ethereum" | "avalanche" | "solana";
            address: string;
            label: string | null;
            /** @description Sign exactly this text in the wallet: EIP-191 `personal_sign` on EVM networks, `signMessage` (ed25519 over its UTF-8 bytes) on Solana. */
            message: string;
            /** Format: date-time */
            expires_at: string;
        };
        ReviewPage: {
            /** @description In descending id order (ids are random: not by creation time). */
            data: {
                id: components["schemas"]["RequestId"];
                /**
                 * Format: uri
                 * @description The public payment page (`GET /proof/pay/{id}`) to send to the payer.
                 */
                url: string;
                status: components["schemas"]["RequestStatus"];
                network: components["schemas"]["Network"];
                wallet_id: components["schemas"]["WalletId"];
                /** @description The receiving address (of the verified wallet). */
                pay_to: string;
                /** @description The exact amount to transfer, in atomic USDC: the quote plus a small unique matching delta (1 to 9,999 atomic units). Show and pay `amount_atomic / 1,000,000`, never a rounded amount. */
                amount_atomic: string;
                /** @description The amount originally requested, in atomic USDC; at most 10000000000000000 USDC (10^16), so that the amount plus its matching delta always has at most 17 integer digits. */
                quoted_amount_atomic: string;
                /** @description `amount_atomic` in USDC with six decimals. */
                amount_usdc: string;
                description: string;
                customer_label: string | null;
                expected_payer: string | null;
                valid_hours: number;
                /**
                 * Format: date-time
                 * @description End of the payment window.
                 */
                expires_at: string;
                /** Format: date-time */
                created_at: string;
                /** @description The invoice this request belongs to; null for a direct request. */
                invoice_id: string | null;
                /** @description The matched transaction once paid; null before. */
                tx_hash: string | null;
                /** @description When the payment was confirmed; null before. */
                verified_at: string | null;
                review_reason: string | null;
                evidence: {
                    tx_hash: string;
                    log_index: number;
                    from: string;
                    to: string;
                    /** @description Amount transferred. */
                    amount_atomic: string;
                    block_number: number;
                    /** Format: date-time */
                    block_time: string;
                    /** @enum {string} */
                    decision: "paid" | "review" | "already_settled" | "unmatched";
                    reason: string | null;
                    /** Format: date-time */
                    recorded_at: string;
                }[];
            }[];
            /** @description Pass as `before` for the next page of this list; null when this page is not full (no more). */
            next_cursor: string | null;
        };
    };
    responses: {
        /** @description Over a request limit. */
        RateLimited: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Unexpected server error. */
        InternalError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Temporarily unavailable. */
        ServiceUnavailable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Id of this request. */
        "X-Request-Id": string;
        /** @description Seconds to wait before retrying. */
        "Retry-After": number;
        /** @description `true` when this is the stored answer of an earlier request with the same `Idempotency-Key`. */
        "Idempotent-Replayed": "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    signIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignIn"];
            };
        };
        responses: {
            /** @description Signed in. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description The session cookie. */
                    "Set-Cookie": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedIn"];
                };
            };
            /** @description Wrong address or password (or a credential in the URL). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over the limit. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    signOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over the limit. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOverview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The overview. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Overview"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPlan: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plan. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plan"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listPlanPurchases: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page of this list, passed back unchanged. Opaque: the pattern is only its shape; any other value is 422. */
                before?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page, by id descending. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PurchasePage"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    buyPlan: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every mutation: 16 to 80 letters, digits, `_` or `-`; account-wide (shared with `/proof/v1`), kept forever. The same operation and body replay the first answer.
                 * @example order-4711-payment-request
                 */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlanPurchaseCreate"];
            };
        };
        responses: {
            /** @description Awaiting payment (or the replay). */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Purchase"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A state or `Idempotency-Key` conflict: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over the limit. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPlanPurchase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Purchase id (`pur_…`).
                 * @example pur_Qm4Zr8Tv1Yx5Cb9Nd2Fh
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The purchase. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Purchase"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in your account. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createKey: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every mutation: 16 to 80 letters, digits, `_` or `-`; account-wide (shared with `/proof/v1`), kept forever. The same operation and body replay the first answer.
                 * @example order-4711-payment-request
                 */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["KeyCreate"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewKey"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A state or `Idempotency-Key` conflict: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over the limit. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    revokeKey: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every mutation: 16 to 80 letters, digits, `_` or `-`; account-wide (shared with `/proof/v1`), kept forever. The same operation and body replay the first answer.
                 * @example order-4711-payment-request
                 */
                "Idempotency-Key": string;
            };
            path: {
                /**
                 * @description API key id (`key_…`).
                 * @example key_Rt2Wv8Yz1Ab43kQ9xLm7
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Revoked. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Key"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in your account. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A state or `Idempotency-Key` conflict: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over the limit. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createDestination: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every mutation: 16 to 80 letters, digits, `_` or `-`; account-wide (shared with `/proof/v1`), kept forever. The same operation and body replay the first answer.
                 * @example order-4711-payment-request
                 */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DestinationCreate"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewDestination"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A state or `Idempotency-Key` conflict: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over the limit. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    disableDestination: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every mutation: 16 to 80 letters, digits, `_` or `-`; account-wide (shared with `/proof/v1`), kept forever. The same operation and body replay the first answer.
                 * @example order-4711-payment-request
                 */
                "Idempotency-Key": string;
            };
            path: {
                /**
                 * @description Destination id (`whe_…`).
                 * @example whe_Hc5Tn0Pq8Ws2Ke6Uy4Gd
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Disabled. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Destination"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in your account. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A state or `Idempotency-Key` conflict: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over the limit. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteDestination: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every mutation: 16 to 80 letters, digits, `_` or `-`; account-wide (shared with `/proof/v1`), kept forever. The same operation and body replay the first answer.
                 * @example order-4711-payment-request
                 */
                "Idempotency-Key": string;
            };
            path: {
                /**
                 * @description Destination id (`whe_…`).
                 * @example whe_Hc5Tn0Pq8Ws2Ke6Uy4Gd
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedDestination"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in your account. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A state or `Idempotency-Key` conflict: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over the limit. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    rotateDestination: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every mutation: 16 to 80 letters, digits, `_` or `-`; account-wide (shared with `/proof/v1`), kept forever. The same operation and body replay the first answer.
                 * @example order-4711-payment-request
                 */
                "Idempotency-Key": string;
            };
            path: {
                /**
                 * @description Destination id (`whe_…`).
                 * @example whe_Hc5Tn0Pq8Ws2Ke6Uy4Gd
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Rotated; the new secret is shown once. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedDestination"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in your account. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A state or `Idempotency-Key` conflict: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over the limit. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listDeliveries: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page of this list, passed back unchanged. Opaque: the pattern is only its shape; any other value is 422. */
                before?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page, by id descending. Bodies are never stored or shown. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryPage"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Delivery id (`dlv_…`).
                 * @example dlv_gEOzdmenCkhvMdgaKjIg
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryDetail"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in your account. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retryDelivery: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every mutation: 16 to 80 letters, digits, `_` or `-`; account-wide (shared with `/proof/v1`), kept forever. The same operation and body replay the first answer.
                 * @example order-4711-payment-request
                 */
                "Idempotency-Key": string;
            };
            path: {
                /**
                 * @description Delivery id (`dlv_…`).
                 * @example dlv_gEOzdmenCkhvMdgaKjIg
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Retrying. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in your account. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A state or `Idempotency-Key` conflict: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over the limit. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWallets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The verified wallets, oldest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WalletList"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createWalletChallenge: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every mutation: 16 to 80 letters, digits, `_` or `-`; account-wide (shared with `/proof/v1`), kept forever. The same operation and body replay the first answer.
                 * @example order-4711-payment-request
                 */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WalletChallengeCreate"];
            };
        };
        responses: {
            /** @description The challenge. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WalletChallenge"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A state or `Idempotency-Key` conflict: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over the limit. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    verifyWallet: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every mutation: 16 to 80 letters, digits, `_` or `-`; account-wide (shared with `/proof/v1`), kept forever. The same operation and body replay the first answer.
                 * @example order-4711-payment-request
                 */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WalletVerify"];
            };
        };
        responses: {
            /** @description The verified wallet. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Wallet"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A state or `Idempotency-Key` conflict: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over the limit. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listPaymentRequests: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page of this list, passed back unchanged. Opaque: the pattern is only its shape; any other value is 422. */
                before?: string;
                /** @description Only requests that read as this status now (an `AWAITING` request past its expiry reads `EXPIRED`). */
                status?: components["schemas"]["RequestStatus"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page, by id descending. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentRequestList"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createPaymentRequest: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every mutation: 16 to 80 letters, digits, `_` or `-`; account-wide (shared with `/proof/v1`), kept forever. The same operation and body replay the first answer.
                 * @example order-4711-payment-request
                 */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentRequestCreate"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentRequest"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in your account. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A state or `Idempotency-Key` conflict: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over the limit. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPaymentRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payment request id (`req_…`).
                 * @example req_mxgJTeKdNnFRIBXuDL7D
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentRequest"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in your account. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listReviews: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page of this list, passed back unchanged. Opaque: the pattern is only its shape; any other value is 422. */
                before?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewPage"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listContacts: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page of this list, passed back unchanged. Opaque: the pattern is only its shape; any other value is 422. */
                before?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactList"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createContact: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every mutation: 16 to 80 letters, digits, `_` or `-`; account-wide (shared with `/proof/v1`), kept forever. The same operation and body replay the first answer.
                 * @example order-4711-payment-request
                 */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContactCreate"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A state or `Idempotency-Key` conflict: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over the limit. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Contact id (`con_…`).
                 * @example con_hGAkWvj7FAc9QeWJKY40
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contact. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in your account. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listInvoices: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page of this list, passed back unchanged. Opaque: the pattern is only its shape; any other value is 422. */
                before?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvoiceList"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createInvoice: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every mutation: 16 to 80 letters, digits, `_` or `-`; account-wide (shared with `/proof/v1`), kept forever. The same operation and body replay the first answer.
                 * @example order-4711-payment-request
                 */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvoiceCreate"];
            };
        };
        responses: {
            /** @description Issued. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in your account. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A state or `Idempotency-Key` conflict: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over the limit. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getInvoice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Invoice id (`inv_…`).
                 * @example inv_uvSwMFLZDe1f8rESQedU
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The invoice. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in your account. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getInvoiceDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Invoice id (`inv_…`).
                 * @example inv_uvSwMFLZDe1f8rESQedU
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The PDF. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description `attachment; filename="INV-000001.pdf"`. */
                    "Content-Disposition": string;
                    /** @description The document's SHA-256 (`document_sha256`). */
                    "X-Content-SHA256": string;
                    /** @description Never cached by shared caches. */
                    "Cache-Control": "private, no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in your account. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    voidInvoice: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every mutation: 16 to 80 letters, digits, `_` or `-`; account-wide (shared with `/proof/v1`), kept forever. The same operation and body replay the first answer.
                 * @example order-4711-payment-request
                 */
                "Idempotency-Key": string;
            };
            path: {
                /**
                 * @description Invoice id (`inv_…`).
                 * @example inv_uvSwMFLZDe1f8rESQedU
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["InvoiceVoid"];
            };
        };
        responses: {
            /** @description Voided. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in your account. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A state or `Idempotency-Key` conflict: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over the limit. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description An integer from 0 to 2^53−1 (default 0). */
                after?: number;
                /** @description Page size, 1 to 100 (default 50). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Events. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventList"];
                };
            };
            /** @description A credential in the URL. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused by a guard: see `code`. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body, query or header; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                        paths: Record<string, never>;
                    };
                };
            };
        };
    };
    getDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
}
