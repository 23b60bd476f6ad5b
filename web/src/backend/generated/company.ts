/**
 * Generated from docs/openapi/company.json by openapi-typescript (npm run openapi:generate); never edit by hand.
 */

export interface paths {
    "/api/company/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who is signed in
         * @description The member, the company and the CSRF token again (for a reloaded page).
         */
        get: operations["getSession"];
        put?: never;
        /**
         * Sign in
         * @description Sets the session cookie `__Host-paycore_company_session` (HttpOnly, Secure, SameSite=Strict, Path=/) and returns the CSRF token every mutation must send as `X-CSRF-Token`. A wrong address and a wrong password get the same 401. Attempts per address are limited (429 with Retry-After). Needs an allowed `Origin`.
         */
        post: operations["signIn"];
        /**
         * Sign out
         * @description Ends the session and clears the cookie.
         */
        delete: operations["signOut"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation
         * @description Joins the company with the role of the invitation and sets the account's password (12 to 256 characters once NFKC-normalised); then sign in. Once per invitation, before it expires; an unknown, used, revoked or expired token is one answer (404 `invitation_invalid`).
         */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The company's jobs
         * @description Every member may list the company's jobs, newest first, in the `/v1` job format.
         */
        get: operations["listJobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The company's uploads
         * @description Every member may list the company's uploads that still hold storage, newest first, as `GET /v1/uploads` lists them (with `in_use`, `job_count` and `batch_count`). Only `limit` and `before` are taken; any other or a repeated parameter is 422.
         */
        get: operations["listUploads"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/batches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The company's batches
         * @description Every member may list the company's batches, newest first, each with its progress and credits but without its children (those are the `/v1` jobs with its `batch_id`).
         */
        get: operations["listBatches"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/jobs/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A job
         * @description One of the company's jobs (every member), in the `/v1` job format; its `download_path`s are the `/v1` ones, and the same files download in this session at `/api/company/jobs/{job_id}/results/{index}`.
         */
        get: operations["getJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/jobs/{job_id}/results/{index}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a result file
         * @description The bytes of a completed job's result file `index` (from 0, the order of `result.files`), as an attachment (every member).
         */
        get: operations["downloadResult"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/batches/{batch_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A batch
         * @description One of the company's batches with its progress, credits and children, as `GET /v1/batches/{batch_id}` (every member).
         */
        get: operations["getBatch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/batches/{batch_id}/results.zip": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A batch's results ZIP
         * @description Once the batch has ended: its successful results in one folder per item plus `manifest.json`, as `GET /v1/batches/{batch_id}/results.zip` (every member).
         */
        get: operations["downloadBatchResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/batches/{batch_id}/retry-failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-run the failed items as a new batch
         * @description Billing administrators: what `POST /v1/batches/{batch_id}/retry-failed` does (a new batch, `retry_of` the original, of its failed and cancelled items, each quoted and reserved anew, atomically), recorded as submitted by the member instead of an API key. No body and no `Idempotency-Key`: a second request while a retry of the same batch is still queued or processing gets 409 `batch_retry_in_progress`, so a double click makes one retry batch. Once that retry has ended, the original may be retried again.
         */
        post: operations["retryFailedBatchItems"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/credits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Credits and the ledger
         * @description The company's available and reserved credits and its ledger as a feed, as `GET /v1/credits` (every member).
         */
        get: operations["getCredits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/jobs/{job_id}/extraction": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The review of an extraction
         * @description A completed `flow-extract` job's values beside the evidence each was read from, with the evidence check's flags, the corrections made so far (who, when, old, new) and the result files: the originals and the latest revision's regenerated exports (every member).
         */
        get: operations["getExtractionReview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/jobs/{job_id}/extraction/corrections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Correct extracted fields
         * @description One revision of corrections of scalar fields (every member). Each is recorded with the member, the time, the value before and after; the three exports are rendered again with the corrections as new result files (`<name>-reviewed.xlsx`, `-reviewed-csv.zip`, `-reviewed.json`) beside the originals, which never change; the previous revision's regenerated files are replaced. No credits are charged. `revision` must be the review's current revision (409 otherwise, nothing changed). A value is given in the form the exports hold it (dates `YYYY-MM-DD`, amounts `1234.50`, currencies ISO 4217, IBANs and VAT numbers compact), or null to clear the field; a correction with the field's current value confirms it. A corrected field has no evidence and is no longer flagged.
         */
        post: operations["correctExtraction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * API keys
         * @description Active keys, then the 20 most recent revoked or expired ones. Never a secret.
         */
        get: operations["listKeys"];
        put?: never;
        /**
         * Create an API key
         * @description An `sk_live_` key of the company, created by (and belonging to) the signed-in administrator: removing that member revokes it. The secret is in this response only. At most 20 active keys per company. `expires_at`: Unix seconds, in the future.
         */
        post: operations["createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/keys/{key_id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an API key
         * @description The key answers 401 from the next request on. Revoking a revoked key changes nothing.
         */
        post: operations["revokeKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Members */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/members/{member_id}/remove": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Remove a member
         * @description In one transaction: the membership ends, every API key the member created is revoked, every invitation they issued that is still open is revoked, their sessions end. The last billing administrator cannot be removed (409).
         */
        post: operations["removeMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Open invitations */
        get: operations["listInvitations"];
        put?: never;
        /**
         * Invite a member
         * @description Invites an address: a single-use token (stored as a digest) is e-mailed to it, with a link to the dashboard's acceptance page, and shown to nobody else (not in this answer): accepting it at `POST /api/company/invitations/accept` before `expires_at` proves control of the address. The e-mail is sent before this answer; if the mail server does not take it, no invitation is made (422 `invitation_undeliverable` for an address it refuses, 503 `mail_unavailable` otherwise, or when this server sends no e-mail). Members and open invitations together stay within 20. `role`: `member` (default) or `billing_admin`.
         */
        post: operations["invite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/invitations/{invitation_id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke an invitation */
        post: operations["revokeInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Saved workflows
         * @description The company's saved workflows (every member), oldest first; deleted ones are gone.
         */
        get: operations["listSavedWorkflows"];
        put?: never;
        /**
         * Save a workflow
         * @description An extraction's fields, instructions and options under a name (billing administrators). A job, estimate or batch names it with `workflow_id`; its settings take precedence over the request's. At most 50 per company.
         */
        post: operations["createSavedWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/workflows/{workflow_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A saved workflow */
        get: operations["getSavedWorkflow"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Edit a saved workflow
         * @description Changes what the body names (billing administrators); `revision` goes up by one. Requests made before keep what they were quoted with.
         */
        patch: operations["updateSavedWorkflow"];
        trace?: never;
    };
    "/api/company/workflows/{workflow_id}/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete a saved workflow
         * @description It is no longer listed nor usable in requests, and its name is free again; jobs that used it keep their results.
         */
        post: operations["deleteSavedWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register a webhook
         * @description A public HTTPS URL (port 443, a public host name, no credentials; the same destination policy as `/proof`; DNS is checked again on every delivery). The signing secret is in this response only. At most 20 per company. A job or batch names it with `webhook_id`; which events it receives is decided there. An API key gets 403 `api_key_not_accepted`.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Webhooks */
        get: operations["listWebhooks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A webhook */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/webhooks/{webhook_id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable a webhook
         * @description No more deliveries, retries included. There is no way back: register a new one.
         */
        post: operations["disableWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/webhooks/{webhook_id}/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete a webhook
         * @description No more deliveries; it is no longer listed nor counted. Its delivery history stays.
         */
        post: operations["deleteWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/webhooks/{webhook_id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret
         * @description A new secret, in this response only; every later attempt (pending retries included) is signed with it.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/deliveries": {
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
    "/api/company/deliveries/{delivery_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A delivery with its attempts */
        get: operations["getDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/credit-packs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Credit packs for sale
         * @description The packs sold for USDC, and the networks the platform accepts payment on (empty: an operator grants credits). Card checkout is not offered (`card_checkout: false`) until a card processor is configured.
         */
        get: operations["listCreditPacks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/credit-packs/purchases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Credit pack purchases */
        get: operations["listCreditPackPurchases"];
        put?: never;
        /**
         * Buy a credit pack (paid in USDC)
         * @description A payment request to the platform's receiving wallet, payable for 24 hours from `payer` only. When the payment watcher confirms the exact amount, the pack's credits are added to the wallet once (a `grant` ledger entry with reason `pack:<purchase id>`). Less from `payer` shows as `underpaid`; a payment from another address or after expiry as `review`; neither grants anything.
         */
        post: operations["buyCreditPack"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/credit-packs/purchases/{purchase_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A credit pack purchase */
        get: operations["getCreditPackPurchase"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/company/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This guide (HTML) */
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
        /** @description The `json` result of `transcribe` (a result file to download, not an API answer): times in seconds from the start of the source, millisecond precision, monotonic and within `duration`; `speaker` is an anonymous label (`SPEAKER_1`, … by first appearance). */
        TranscriptJson: {
            /** @description ISO 639-1 code of the spoken language (`und` when unknown) */
            language: string;
            /** @description Seconds of decoded audio */
            duration: number;
            segments: {
                /** @description Seconds from the start of the source, millisecond precision */
                start: number;
                /** @description Seconds from the start of the source, millisecond precision */
                end: number;
                text: string;
                /** @description Speaker label (SPEAKER_1, …), null when speakers are not known */
                speaker: string | null;
            }[];
            words: {
                /** @description Seconds from the start of the source, millisecond precision */
                start: number;
                /** @description Seconds from the start of the source, millisecond precision */
                end: number;
                word: string;
                confidence: number;
                /** @description Speaker label (SPEAKER_1, …), null when speakers are not known */
                speaker: string | null;
            }[];
        };
        /** @description The `.json` result of `flow-extract` (a result file, when the operation is available): one entry per input document with its fields (missing values are null), line items, evidence and review flags (docs/processing.md, "Field extraction"). */
        ExtractionJson: {
            documents: {
                /** @description The input document's name */
                document: string;
                upload_id: string | null;
                pages: number;
                /** @description True when a value failed the evidence check or the document needs a look */
                review_required: boolean;
                review_reasons: string[];
                /** @description Every requested field in request order: dates YYYY-MM-DD, amounts "1234.50", currencies ISO 4217; null when missing */
                fields: {
                    [key: string]: string | null;
                };
                items: {
                    description: string | null;
                    quantity: string | null;
                    unit_price: string | null;
                    amount: string | null;
                }[];
                evidence: {
                    fields: {
                        [key: string]: {
                            /** @description 1-based page the value was read from; null for a value read from an e-invoice's XML (`source` `xml`) */
                            page: number | null;
                            /** @description The source text the value came from (for `source` `xml`: the XML element's text) */
                            snippet: string | null;
                            box: {
                                x0: number;
                                y0: number;
                                x1: number;
                                y1: number;
                            } | null;
                            /**
                             * @description Where the snippet is: the text of `page`, or an element of the e-invoice XML the source is or carries (a Factur-X / ZUGFeRD / XRechnung PDF's attachment, an uploaded CII or UBL invoice)
                             * @default page
                             * @enum {string}
                             */
                            source: "page" | "xml";
                            /**
                             * @description `source` `xml`: the element's path, e.g. `/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID` (qualified names as the XML writes them, `[n]` for the n-th element of a name after the first); null for page evidence
                             * @default null
                             */
                            path: string | null;
                            /**
                             * @description `source` `xml`: the XML's file name in the PDF (`factur-x.xml`); null for an uploaded XML and for page evidence
                             * @default null
                             */
                            file: string | null;
                            /** @description True when the value failed the evidence check (kept, to be reviewed) */
                            flagged: boolean;
                            /** @description Why it was flagged */
                            reason: string | null;
                        } | null;
                    };
                    items: {
                        description: {
                            /** @description 1-based page the value was read from; null for a value read from an e-invoice's XML (`source` `xml`) */
                            page: number | null;
                            /** @description The source text the value came from (for `source` `xml`: the XML element's text) */
                            snippet: string | null;
                            box: {
                                x0: number;
                                y0: number;
                                x1: number;
                                y1: number;
                            } | null;
                            /**
                             * @description Where the snippet is: the text of `page`, or an element of the e-invoice XML the source is or carries (a Factur-X / ZUGFeRD / XRechnung PDF's attachment, an uploaded CII or UBL invoice)
                             * @default page
                             * @enum {string}
                             */
                            source: "page" | "xml";
                            /**
                             * @description `source` `xml`: the element's path, e.g. `/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID` (qualified names as the XML writes them, `[n]` for the n-th element of a name after the first); null for page evidence
                             * @default null
                             */
                            path: string | null;
                            /**
                             * @description `source` `xml`: the XML's file name in the PDF (`factur-x.xml`); null for an uploaded XML and for page evidence
                             * @default null
                             */
                            file: string | null;
                            /** @description True when the value failed the evidence check (kept, to be reviewed) */
                            flagged: boolean;
                            /** @description Why it was flagged */
                            reason: string | null;
                        } | null;
                        quantity: {
                            /** @description 1-based page the value was read from; null for a value read from an e-invoice's XML (`source` `xml`) */
                            page: number | null;
                            /** @description The source text the value came from (for `source` `xml`: the XML element's text) */
                            snippet: string | null;
                            box: {
                                x0: number;
                                y0: number;
                                x1: number;
                                y1: number;
                            } | null;
                            /**
                             * @description Where the snippet is: the text of `page`, or an element of the e-invoice XML the source is or carries (a Factur-X / ZUGFeRD / XRechnung PDF's attachment, an uploaded CII or UBL invoice)
                             * @default page
                             * @enum {string}
                             */
                            source: "page" | "xml";
                            /**
                             * @description `source` `xml`: the element's path, e.g. `/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID` (qualified names as the XML writes them, `[n]` for the n-th element of a name after the first); null for page evidence
                             * @default null
                             */
                            path: string | null;
                            /**
                             * @description `source` `xml`: the XML's file name in the PDF (`factur-x.xml`); null for an uploaded XML and for page evidence
                             * @default null
                             */
                            file: string | null;
                            /** @description True when the value failed the evidence check (kept, to be reviewed) */
                            flagged: boolean;
                            /** @description Why it was flagged */
                            reason: string | null;
                        } | null;
                        unit_price: {
                            /** @description 1-based page the value was read from; null for a value read from an e-invoice's XML (`source` `xml`) */
                            page: number | null;
                            /** @description The source text the value came from (for `source` `xml`: the XML element's text) */
                            snippet: string | null;
                            box: {
                                x0: number;
                                y0: number;
                                x1: number;
                                y1: number;
                            } | null;
                            /**
                             * @description Where the snippet is: the text of `page`, or an element of the e-invoice XML the source is or carries (a Factur-X / ZUGFeRD / XRechnung PDF's attachment, an uploaded CII or UBL invoice)
                             * @default page
                             * @enum {string}
                             */
                            source: "page" | "xml";
                            /**
                             * @description `source` `xml`: the element's path, e.g. `/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID` (qualified names as the XML writes them, `[n]` for the n-th element of a name after the first); null for page evidence
                             * @default null
                             */
                            path: string | null;
                            /**
                             * @description `source` `xml`: the XML's file name in the PDF (`factur-x.xml`); null for an uploaded XML and for page evidence
                             * @default null
                             */
                            file: string | null;
                            /** @description True when the value failed the evidence check (kept, to be reviewed) */
                            flagged: boolean;
                            /** @description Why it was flagged */
                            reason: string | null;
                        } | null;
                        amount: {
                            /** @description 1-based page the value was read from; null for a value read from an e-invoice's XML (`source` `xml`) */
                            page: number | null;
                            /** @description The source text the value came from (for `source` `xml`: the XML element's text) */
                            snippet: string | null;
                            box: {
                                x0: number;
                                y0: number;
                                x1: number;
                                y1: number;
                            } | null;
                            /**
                             * @description Where the snippet is: the text of `page`, or an element of the e-invoice XML the source is or carries (a Factur-X / ZUGFeRD / XRechnung PDF's attachment, an uploaded CII or UBL invoice)
                             * @default page
                             * @enum {string}
                             */
                            source: "page" | "xml";
                            /**
                             * @description `source` `xml`: the element's path, e.g. `/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID` (qualified names as the XML writes them, `[n]` for the n-th element of a name after the first); null for page evidence
                             * @default null
                             */
                            path: string | null;
                            /**
                             * @description `source` `xml`: the XML's file name in the PDF (`factur-x.xml`); null for an uploaded XML and for page evidence
                             * @default null
                             */
                            file: string | null;
                            /** @description True when the value failed the evidence check (kept, to be reviewed) */
                            flagged: boolean;
                            /** @description Why it was flagged */
                            reason: string | null;
                        } | null;
                        /** @default null */
                        line: {
                            /** @description 1-based page of the line (of its description, else of its first cell with evidence) */
                            page: number;
                            /** @description Its cells' snippets on that page in reading order, separated by spaces */
                            snippet: string;
                            /** @description The union of its cells' boxes on that page; null on a plain-text page */
                            box: {
                                x0: number;
                                y0: number;
                                x1: number;
                                y1: number;
                            } | null;
                            /** @description True when any of its cells was flagged */
                            flagged: boolean;
                            /** @description Why its cells were flagged (each reason once, separated by "; ") */
                            reason: string | null;
                        } | null;
                    }[];
                };
                warnings: string[];
                /** @description Review corrections of this document's fields, oldest first; empty in a job's first exports. A corrected field has no evidence: its value is the reviewer's */
                corrections: {
                    field: string;
                    /** @description The value before this correction */
                    previous_value: string | null;
                    /** @description The corrected value, in the same form as `fields` */
                    value: string | null;
                    /** @description The review revision that made it */
                    revision: number;
                    /** @description The reviewer's e-mail address */
                    corrected_by: string;
                    /** @description ISO 8601 */
                    corrected_at: string;
                }[];
            }[];
        };
        /** @description The `.json` result of `meeting` (a result file): the `TranscriptJson` fields plus the meeting document (docs/processing.md, "Meeting"). */
        MeetingJson: {
            /** @description ISO 639-1 code of the spoken language (`und` when unknown) */
            language: string;
            /** @description Seconds of decoded audio */
            duration: number;
            segments: {
                /** @description Seconds from the start of the source, millisecond precision */
                start: number;
                /** @description Seconds from the start of the source, millisecond precision */
                end: number;
                text: string;
                /** @description Speaker label (SPEAKER_1, …), null when speakers are not known */
                speaker: string | null;
            }[];
            words: {
                /** @description Seconds from the start of the source, millisecond precision */
                start: number;
                /** @description Seconds from the start of the source, millisecond precision */
                end: number;
                word: string;
                confidence: number;
                /** @description Speaker label (SPEAKER_1, …), null when speakers are not known */
                speaker: string | null;
            }[];
            title: string;
            speakers: {
                /** @description Speaker label (SPEAKER_1, …), null when not known */
                speaker: string | null;
                /** @description Seconds of speech (words plus pauses under 1 s between them) */
                talk_time: number;
                /** @description Share of everyone's talk time */
                share: number;
                words: number;
                turns: number;
                /** @description Seconds from the start of the source, millisecond precision */
                first_start: number;
            }[];
            timeline: {
                /** @description Seconds from the start of the source, millisecond precision */
                start: number;
                /** @description Seconds from the start of the source, millisecond precision */
                end: number;
                /** @description Speaker label (SPEAKER_1, …), null when not known */
                speaker: string | null;
                words: number;
                /** @description The turn's first 12 words */
                excerpt: string;
            }[];
            summary: {
                /** @enum {string} */
                source: "language_model" | "extractive";
                /** @description The language model, null for an extractive summary */
                model: string | null;
                /** @description How the summary was made, for the reader */
                notice: string;
                /** @description The language model's summary (empty for an extractive summary) */
                paragraphs: string[];
                /** @description Extractive summary: key sentences in time order (empty for a language-model summary) */
                key_sentences: {
                    /** @description The transcript's own words */
                    text: string;
                    /** @description Seconds from the start of the source, millisecond precision */
                    start: number;
                    /** @description Seconds from the start of the source, millisecond precision */
                    end: number;
                    /** @description Speaker label (SPEAKER_1, …), null when not known */
                    speaker: string | null;
                }[];
                decisions: {
                    text: string;
                    quotes: {
                        /** @description The transcript's own words */
                        text: string;
                        /** @description Seconds from the start of the source, millisecond precision */
                        start: number;
                        /** @description Seconds from the start of the source, millisecond precision */
                        end: number;
                        /** @description Speaker label (SPEAKER_1, …), null when not known */
                        speaker: string | null;
                    }[];
                    cues: string[];
                }[];
                action_items: {
                    text: string;
                    /** @description Speaker label (SPEAKER_1, …), null when not known */
                    owner: string | null;
                    due: string | null;
                    quotes: {
                        /** @description The transcript's own words */
                        text: string;
                        /** @description Seconds from the start of the source, millisecond precision */
                        start: number;
                        /** @description Seconds from the start of the source, millisecond precision */
                        end: number;
                        /** @description Speaker label (SPEAKER_1, …), null when not known */
                        speaker: string | null;
                    }[];
                    cues: string[];
                }[];
                warnings: string[];
            };
        };
        /** @description Every error of these routes: `{detail, code, request_id}` as on `/v1`; `issues` on a 422. */
        Error: {
            detail: string;
            /** @enum {string} */
            code: "session_required" | "invalid_credentials" | "api_key_in_url" | "authorization_header_rejected" | "api_key_not_accepted" | "origin_rejected" | "csrf_failed" | "billing_admin_required" | "forbidden" | "not_found" | "conflict" | "gone" | "batch_not_terminal" | "batch_has_no_failed_items" | "batch_retry_needs_password" | "batch_retry_in_progress" | "insufficient_credits" | "queue_full" | "batch_zip_too_large" | "invitation_invalid" | "limit_reached" | "invitation_pending" | "invitation_undeliverable" | "mail_unavailable" | "account_in_other_company" | "last_billing_admin" | "purchase_unavailable" | "too_many_open_purchases" | "payload_too_large" | "unsupported_media_type" | "validation_failed" | "malformed_json" | "rate_limited" | "internal_error" | "service_unavailable";
            request_id: string;
            issues?: {
                path: string;
                message: string;
            }[];
        } & {
            [key: string]: unknown;
        };
        /** @description Upload id: `upl_` and 20 letters or digits. */
        UploadId: string;
        /** @description Webhook id: `whe_` and 20 letters or digits. */
        WebhookId: string;
        /** @description Body of `POST /v1/estimate` and `POST /v1/jobs`, validated strictly: an unknown field or option is a 422. The spec fields `items` and `webhook_mode` (batches only: `POST /v1/batches`) are refused with 422 here; `fields`, `instructions` and `workflow_id` belong to `flow-extract` only. Reserved extraction field names: items, warnings, evidence, review_required, human_review. */
        JobRequest: components["schemas"]["PdfExtractRequest"] | components["schemas"]["PdfDeleteRequest"] | components["schemas"]["PdfRotateRequest"] | components["schemas"]["PdfProtectRequest"] | components["schemas"]["PdfUnlockRequest"] | components["schemas"]["PdfWatermarkRequest"] | components["schemas"]["PdfNumberRequest"] | components["schemas"]["PdfMergeRequest"] | components["schemas"]["ImageEditRequest"] | components["schemas"]["ImageCompressRequest"] | components["schemas"]["WebpRequest"] | components["schemas"]["AudioTrimRequest"] | components["schemas"]["VideoTrimRequest"] | components["schemas"]["VideoRotateRequest"] | components["schemas"]["VideoResizeRequest"] | components["schemas"]["AudioCompressRequest"] | components["schemas"]["VideoCompressRequest"] | components["schemas"]["OcrTextRequest"] | components["schemas"]["OcrDocxRequest"] | components["schemas"]["OcrPdfRequest"] | components["schemas"]["TranscribeRequest"] | components["schemas"]["MeetingRequest"] | components["schemas"]["FlowExtractRequest"];
        /**
         * pdf-extract
         * @description Keep only the selected pages of a PDF.
         */
        PdfExtractRequest: {
            /** @constant */
            operation: "pdf-extract";
            upload_ids: components["schemas"]["UploadId"][];
            options: {
                /** @description Page numbers or ranges separated by commas, e.g. `1-3,5`; at least one page, checked against the real page count. */
                pages: string & (unknown & unknown);
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * pdf-delete
         * @description Delete the selected pages of a PDF (not all of them).
         */
        PdfDeleteRequest: {
            /** @constant */
            operation: "pdf-delete";
            upload_ids: components["schemas"]["UploadId"][];
            options: {
                /** @description Page numbers or ranges separated by commas, e.g. `1-3,5`; at least one page, checked against the real page count. */
                pages: string & (unknown & unknown);
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * pdf-rotate
         * @description Rotate the selected pages (default: all) clockwise.
         */
        PdfRotateRequest: {
            /** @constant */
            operation: "pdf-rotate";
            upload_ids: components["schemas"]["UploadId"][];
            options: {
                /** @enum {number} */
                angle: 90 | 180 | 270;
                /** @description Page numbers or ranges separated by commas, e.g. `1-3,5`; checked against the real page count. Empty or absent selects every page. */
                pages?: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * pdf-protect
         * @description Encrypt a PDF with a password.
         */
        PdfProtectRequest: {
            /** @constant */
            operation: "pdf-protect";
            upload_ids: components["schemas"]["UploadId"][];
            options: {
                /** @description Forwarded privately to the PDF worker; never stored after the job ends, never shown in the job. */
                password: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * pdf-unlock
         * @description Remove the password of an encrypted PDF; the password is checked and the pages counted before quoting.
         */
        PdfUnlockRequest: {
            /** @constant */
            operation: "pdf-unlock";
            upload_ids: components["schemas"]["UploadId"][];
            options: {
                /** @description Forwarded privately to the PDF worker; never stored after the job ends, never shown in the job. */
                password: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * pdf-watermark
         * @description Stamp a text on the selected pages (default: all).
         */
        PdfWatermarkRequest: {
            /** @constant */
            operation: "pdf-watermark";
            upload_ids: components["schemas"]["UploadId"][];
            options: {
                /** @description 1 to 200 characters after trimming surrounding whitespace, on one line: no control characters. Drawn with embedded fonts: Latin, Greek, Cyrillic and many symbols (DejaVu Sans), Chinese, Japanese and Korean (Droid Sans Fallback). Unassigned and private-use code points, characters no font has, and right-to-left scripts (not drawn yet) are refused with 422 naming `options.text`. */
                text: string & (unknown & unknown & unknown);
                /** @description Page numbers or ranges separated by commas, e.g. `1-3,5`; checked against the real page count. Empty or absent selects every page. */
                pages?: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * pdf-number
         * @description Print page numbers on the selected pages (default: all).
         */
        PdfNumberRequest: {
            /** @constant */
            operation: "pdf-number";
            upload_ids: components["schemas"]["UploadId"][];
            options?: {
                /** @description Number printed on the first selected page (default 1); the others follow consecutively. */
                start?: number;
                /** @description Page numbers or ranges separated by commas, e.g. `1-3,5`; checked against the real page count. Empty or absent selects every page. */
                pages?: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * pdf-merge
         * @description Merge 2 to 20 PDFs in the order given.
         */
        PdfMergeRequest: {
            /** @constant */
            operation: "pdf-merge";
            upload_ids: components["schemas"]["UploadId"][];
            options?: Record<string, never>;
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * image-edit
         * @description Resize (contained in width × height, aspect ratio kept), rotate, flip, crop and convert an image.
         */
        ImageEditRequest: {
            /** @constant */
            operation: "image-edit";
            upload_ids: components["schemas"]["UploadId"][];
            /** @description At least one of width+height (both), angle, flip, format, crop. Applied as crop, rotate, flip, contain, encode; an output larger than its format holds (WebP 16383, JPEG 65535 pixels a side) is refused with 422 naming `options.format` (or `options.angle`), before quoting. */
            options: {
                width?: number;
                height?: number;
                angle?: number;
                /** @enum {string} */
                flip?: "horizontal" | "vertical" | "both";
                /** @enum {string} */
                format?: "jpg" | "png" | "webp";
                /** @description left, top, width, height in pixels of the image as displayed (the upload's `width` and `height`): left + width and top + height at most the image's; a crop outside the image is refused with 422 naming `options.crop`, before quoting. */
                crop?: [
                    number,
                    number,
                    number,
                    number
                ];
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * image-compress
         * @description Compress an image, optionally converting it.
         */
        ImageCompressRequest: {
            /** @constant */
            operation: "image-compress";
            upload_ids: components["schemas"]["UploadId"][];
            options?: {
                /** @enum {string} */
                format?: "jpg" | "png" | "webp";
                /** @enum {string} */
                level?: "balanced" | "strong";
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * webp
         * @description Convert an image to WebP.
         */
        WebpRequest: {
            /** @constant */
            operation: "webp";
            upload_ids: components["schemas"]["UploadId"][];
            options?: Record<string, never>;
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * audio-trim
         * @description Keep the part of an audio file from `start` to `end` (exact to the sample; re-encoded in the source's format when it is MP3, WAV, FLAC or Ogg, else AAC in M4A).
         */
        AudioTrimRequest: {
            /** @constant */
            operation: "audio-trim";
            upload_ids: components["schemas"]["UploadId"][];
            options: {
                /** @description Seconds from the beginning of the audio where the kept part starts (default 0); below the measured duration. */
                start?: number;
                /** @description Seconds from the beginning where the kept part ends: at least 0.1 s after `start`, at most the measured duration (the upload's `duration_seconds`); otherwise 422 naming `options.end`, before quoting. */
                end: number;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * video-trim
         * @description Keep the part of a video from `start` to `end` (exact to the frame; H.264 + AAC in MP4).
         */
        VideoTrimRequest: {
            /** @constant */
            operation: "video-trim";
            upload_ids: components["schemas"]["UploadId"][];
            options: {
                /** @description Seconds from the beginning of the video where the kept part starts (default 0); below the measured duration. */
                start?: number;
                /** @description Seconds from the beginning where the kept part ends: at least 0.1 s after `start`, at most the measured duration (the upload's `duration_seconds`); otherwise 422 naming `options.end`, before quoting. */
                end: number;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * video-rotate
         * @description Rotate a video clockwise (H.264 + AAC in MP4; a rotation flag of the source is applied first, so the result is turned from what players showed).
         */
        VideoRotateRequest: {
            /** @constant */
            operation: "video-rotate";
            upload_ids: components["schemas"]["UploadId"][];
            options: {
                /** @enum {number} */
                angle: 90 | 180 | 270;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * video-resize
         * @description Scale a video to a height; the width keeps the display aspect ratio, rounded to an even number (H.264 + AAC in MP4).
         */
        VideoResizeRequest: {
            /** @constant */
            operation: "video-resize";
            upload_ids: components["schemas"]["UploadId"][];
            options: {
                /** @enum {number} */
                height: 240 | 360 | 480 | 720 | 1080 | 1440 | 2160;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * audio-compress
         * @description Compress audio to AAC in M4A: 96 kbit/s (64 mono), and at most three quarters of the source's bitrate.
         */
        AudioCompressRequest: {
            /** @constant */
            operation: "audio-compress";
            upload_ids: components["schemas"]["UploadId"][];
            options?: {
                /**
                 * @description The only level (default).
                 * @enum {string}
                 */
                level?: "balanced";
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * video-compress
         * @description Compress a video (H.264 CRF 28, at most 70 % of the source's video bitrate; AAC up to 96 kbit/s) in MP4, same size and duration.
         */
        VideoCompressRequest: {
            /** @constant */
            operation: "video-compress";
            upload_ids: components["schemas"]["UploadId"][];
            options?: {
                /**
                 * @description The only level (default).
                 * @enum {string}
                 */
                level?: "balanced";
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * ocr-text
         * @description Recognise the text of a scanned or mixed PDF, or of an image, as plain UTF-8 text (pages separated by a form feed). Pages that already have a text layer keep their own text.
         */
        OcrTextRequest: {
            /** @constant */
            operation: "ocr-text";
            upload_ids: components["schemas"]["UploadId"][];
            options?: {
                /** @description The language of the text: a Tesseract language code (`eng`), or up to three joined by `+` (`eng+deu`). Default: the first of the server's installed languages (`eng` unless configured). A language this server has not installed is refused with 422 naming `options.language` and listing the installed ones. */
                language?: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * ocr-docx
         * @description Recognise the text of a scanned or mixed PDF, or of an image, as a Word document (DOCX): one page per source page, one paragraph per block of text.
         */
        OcrDocxRequest: {
            /** @constant */
            operation: "ocr-docx";
            upload_ids: components["schemas"]["UploadId"][];
            options?: {
                /** @description The language of the text: a Tesseract language code (`eng`), or up to three joined by `+` (`eng+deu`). Default: the first of the server's installed languages (`eng` unless configured). A language this server has not installed is refused with 422 naming `options.language` and listing the installed ones. */
                language?: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * ocr-pdf
         * @description Make a scanned or mixed PDF, or an image, searchable: each page as it was with an invisible text layer; pages that already have text are kept unchanged.
         */
        OcrPdfRequest: {
            /** @constant */
            operation: "ocr-pdf";
            upload_ids: components["schemas"]["UploadId"][];
            options?: {
                /** @description The language of the text: a Tesseract language code (`eng`), or up to three joined by `+` (`eng+deu`). Default: the first of the server's installed languages (`eng` unless configured). A language this server has not installed is refused with 422 naming `options.language` and listing the installed ones. */
                language?: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * transcribe
         * @description Transcribe the speech of an audio file or of a video's first audio track, with word timestamps and anonymous speakers (`SPEAKER_1`, …). Priced per started minute of the decoded duration. Result formats: docs/processing.md, "Transcription".
         */
        TranscribeRequest: {
            /** @constant */
            operation: "transcribe";
            upload_ids: components["schemas"]["UploadId"][];
            options?: {
                /** @description The result file (default `txt`; capitals accepted): `txt` speaker-labelled paragraphs, `docx` the same as a Word document, `srt` and `vtt` subtitles (at most 2 lines of 42 characters and 6 s per cue, never overlapping, speaker labels), `json` the `TranscriptJson` schema (`TranscriptJson`: language, duration, segments with speaker, words with start, end and confidence). */
                output_format?: string;
                /** @description The spoken language as an ISO 639-1 code (`en`, `de`, `ja`; `haw` and `yue` for the two languages without one). Default: detected from the audio (per chunk of a long file; the transcript's `language` is the one most of its words were heard in). A code the engine does not know is refused with 422 naming `options.language`. */
                language?: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * meeting
         * @description Transcribe a meeting (audio, or a video's first audio track) and write the meeting document twice, as DOCX and as JSON: speakers with talk time, a timeline of turns, a summary, and the transcript with speakers. Priced per started minute of the decoded duration. docs/processing.md, "Meeting".
         */
        MeetingRequest: {
            /** @constant */
            operation: "meeting";
            upload_ids: components["schemas"]["UploadId"][];
            options?: {
                /** @description The spoken language as an ISO 639-1 code (`en`, `de`, `ja`; `haw` and `yue` for the two languages without one). Default: detected from the audio (per chunk of a long file; the transcript's `language` is the one most of its words were heard in). A code the engine does not know is refused with 422 naming `options.language`. */
                language?: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        };
        /**
         * flow-extract
         * @description Extract named fields and line items from PDFs, images and UTF-8 text (1 to 20 documents, one row per document): each value with the evidence it was read from, checked against the source by the platform; `review_required` where a check failed. Results: XLSX, the CSV files in one ZIP, and JSON (`ExtractionJson`). Send `fields` (and optional `instructions`), or a `workflow_id` whose settings take precedence. An e-invoice (a PDF with its CII or UBL XML embedded: Factur-X, ZUGFeRD, XRechnung; or that XML, or a FatturaPA, uploaded as text) is read from its XML: evidence `source` `xml` with the element's `path`. 25 credits per page. docs/processing.md, "Field extraction" and "E-invoices".
         */
        FlowExtractRequest: {
            /** @description The values to extract, as field names (unique whatever their case; items, warnings, evidence, review_required, human_review are reserved). Required unless `workflow_id` is sent. */
            fields?: (string & (unknown & unknown))[];
            /** @description Free text for the engine (e.g. "dates are US month/day"); data, never a rule it must obey over its own. */
            instructions?: string;
            /** @description A saved workflow of your company (`/api/company/workflows`): its fields, instructions and options are used instead of the body's. Unknown, another company's or deleted: 404 naming `workflow_id`. */
            workflow_id?: string;
            /** @constant */
            operation: "flow-extract";
            upload_ids: components["schemas"]["UploadId"][];
            /** @description No options in this release: `{}` or absent. */
            options?: Record<string, never>;
            /** @description Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`). */
            webhook_id?: components["schemas"]["WebhookId"];
        } | {
            fields: unknown;
        } | {
            workflow_id: unknown;
        };
        /** @description Body of `POST /v1/batches/estimate` and `POST /v1/batches`: one operation and its options for every child job, and the sources as `upload_ids` (one child per upload; operations of one source) or `items` (one child per group, e.g. `pdf-merge`), never both; at most 100 children. Each child is validated and quoted like a job body (`JobRequest`); a problem names the item (`items.3.upload_ids.0`, or `upload_ids.3` with the shorthand). `max_credits` applies to the whole batch quote; `webhook_id` and `webhook_mode` say where and which events the batch sends. */
        BatchRequest: components["schemas"]["BatchPdfExtractRequest"] | components["schemas"]["BatchPdfDeleteRequest"] | components["schemas"]["BatchPdfRotateRequest"] | components["schemas"]["BatchPdfProtectRequest"] | components["schemas"]["BatchPdfUnlockRequest"] | components["schemas"]["BatchPdfWatermarkRequest"] | components["schemas"]["BatchPdfNumberRequest"] | components["schemas"]["BatchPdfMergeRequest"] | components["schemas"]["BatchImageEditRequest"] | components["schemas"]["BatchImageCompressRequest"] | components["schemas"]["BatchWebpRequest"] | components["schemas"]["BatchAudioTrimRequest"] | components["schemas"]["BatchVideoTrimRequest"] | components["schemas"]["BatchVideoRotateRequest"] | components["schemas"]["BatchVideoResizeRequest"] | components["schemas"]["BatchAudioCompressRequest"] | components["schemas"]["BatchVideoCompressRequest"] | components["schemas"]["BatchOcrTextRequest"] | components["schemas"]["BatchOcrDocxRequest"] | components["schemas"]["BatchOcrPdfRequest"] | components["schemas"]["BatchTranscribeRequest"] | components["schemas"]["BatchMeetingRequest"] | components["schemas"]["BatchFlowExtractRequest"];
        /**
         * pdf-extract
         * @description Keep only the selected pages of a PDF.
         */
        BatchPdfExtractRequest: {
            /** @constant */
            operation: "pdf-extract";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options: {
                /** @description Page numbers or ranges separated by commas, e.g. `1-3,5`; at least one page, checked against the real page count. */
                pages: string & (unknown & unknown);
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * pdf-delete
         * @description Delete the selected pages of a PDF (not all of them).
         */
        BatchPdfDeleteRequest: {
            /** @constant */
            operation: "pdf-delete";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options: {
                /** @description Page numbers or ranges separated by commas, e.g. `1-3,5`; at least one page, checked against the real page count. */
                pages: string & (unknown & unknown);
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * pdf-rotate
         * @description Rotate the selected pages (default: all) clockwise.
         */
        BatchPdfRotateRequest: {
            /** @constant */
            operation: "pdf-rotate";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options: {
                /** @enum {number} */
                angle: 90 | 180 | 270;
                /** @description Page numbers or ranges separated by commas, e.g. `1-3,5`; checked against the real page count. Empty or absent selects every page. */
                pages?: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * pdf-protect
         * @description Encrypt a PDF with a password.
         */
        BatchPdfProtectRequest: {
            /** @constant */
            operation: "pdf-protect";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options: {
                /** @description Forwarded privately to the PDF worker; never stored after the job ends, never shown in the job. */
                password: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * pdf-unlock
         * @description Remove the password of an encrypted PDF; the password is checked and the pages counted before quoting.
         */
        BatchPdfUnlockRequest: {
            /** @constant */
            operation: "pdf-unlock";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options: {
                /** @description Forwarded privately to the PDF worker; never stored after the job ends, never shown in the job. */
                password: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * pdf-watermark
         * @description Stamp a text on the selected pages (default: all).
         */
        BatchPdfWatermarkRequest: {
            /** @constant */
            operation: "pdf-watermark";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options: {
                /** @description 1 to 200 characters after trimming surrounding whitespace, on one line: no control characters. Drawn with embedded fonts: Latin, Greek, Cyrillic and many symbols (DejaVu Sans), Chinese, Japanese and Korean (Droid Sans Fallback). Unassigned and private-use code points, characters no font has, and right-to-left scripts (not drawn yet) are refused with 422 naming `options.text`. */
                text: string & (unknown & unknown & unknown);
                /** @description Page numbers or ranges separated by commas, e.g. `1-3,5`; checked against the real page count. Empty or absent selects every page. */
                pages?: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * pdf-number
         * @description Print page numbers on the selected pages (default: all).
         */
        BatchPdfNumberRequest: {
            /** @constant */
            operation: "pdf-number";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options?: {
                /** @description Number printed on the first selected page (default 1); the others follow consecutively. */
                start?: number;
                /** @description Page numbers or ranges separated by commas, e.g. `1-3,5`; checked against the real page count. Empty or absent selects every page. */
                pages?: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * pdf-merge
         * @description Merge 2 to 20 PDFs in the order given.
         */
        BatchPdfMergeRequest: {
            /** @constant */
            operation: "pdf-merge";
            /** @description pdf-merge takes at least 2 sources: send `items`. */
            upload_ids?: unknown;
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options?: Record<string, never>;
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * image-edit
         * @description Resize (contained in width × height, aspect ratio kept), rotate, flip, crop and convert an image.
         */
        BatchImageEditRequest: {
            /** @constant */
            operation: "image-edit";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            /** @description At least one of width+height (both), angle, flip, format, crop. Applied as crop, rotate, flip, contain, encode; an output larger than its format holds (WebP 16383, JPEG 65535 pixels a side) is refused with 422 naming `options.format` (or `options.angle`), before quoting. */
            options: {
                width?: number;
                height?: number;
                angle?: number;
                /** @enum {string} */
                flip?: "horizontal" | "vertical" | "both";
                /** @enum {string} */
                format?: "jpg" | "png" | "webp";
                /** @description left, top, width, height in pixels of the image as displayed (the upload's `width` and `height`): left + width and top + height at most the image's; a crop outside the image is refused with 422 naming `options.crop`, before quoting. */
                crop?: [
                    number,
                    number,
                    number,
                    number
                ];
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * image-compress
         * @description Compress an image, optionally converting it.
         */
        BatchImageCompressRequest: {
            /** @constant */
            operation: "image-compress";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options?: {
                /** @enum {string} */
                format?: "jpg" | "png" | "webp";
                /** @enum {string} */
                level?: "balanced" | "strong";
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * webp
         * @description Convert an image to WebP.
         */
        BatchWebpRequest: {
            /** @constant */
            operation: "webp";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options?: Record<string, never>;
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * audio-trim
         * @description Keep the part of an audio file from `start` to `end` (exact to the sample; re-encoded in the source's format when it is MP3, WAV, FLAC or Ogg, else AAC in M4A).
         */
        BatchAudioTrimRequest: {
            /** @constant */
            operation: "audio-trim";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options: {
                /** @description Seconds from the beginning of the audio where the kept part starts (default 0); below the measured duration. */
                start?: number;
                /** @description Seconds from the beginning where the kept part ends: at least 0.1 s after `start`, at most the measured duration (the upload's `duration_seconds`); otherwise 422 naming `options.end`, before quoting. */
                end: number;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * video-trim
         * @description Keep the part of a video from `start` to `end` (exact to the frame; H.264 + AAC in MP4).
         */
        BatchVideoTrimRequest: {
            /** @constant */
            operation: "video-trim";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options: {
                /** @description Seconds from the beginning of the video where the kept part starts (default 0); below the measured duration. */
                start?: number;
                /** @description Seconds from the beginning where the kept part ends: at least 0.1 s after `start`, at most the measured duration (the upload's `duration_seconds`); otherwise 422 naming `options.end`, before quoting. */
                end: number;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * video-rotate
         * @description Rotate a video clockwise (H.264 + AAC in MP4; a rotation flag of the source is applied first, so the result is turned from what players showed).
         */
        BatchVideoRotateRequest: {
            /** @constant */
            operation: "video-rotate";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options: {
                /** @enum {number} */
                angle: 90 | 180 | 270;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * video-resize
         * @description Scale a video to a height; the width keeps the display aspect ratio, rounded to an even number (H.264 + AAC in MP4).
         */
        BatchVideoResizeRequest: {
            /** @constant */
            operation: "video-resize";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options: {
                /** @enum {number} */
                height: 240 | 360 | 480 | 720 | 1080 | 1440 | 2160;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * audio-compress
         * @description Compress audio to AAC in M4A: 96 kbit/s (64 mono), and at most three quarters of the source's bitrate.
         */
        BatchAudioCompressRequest: {
            /** @constant */
            operation: "audio-compress";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options?: {
                /**
                 * @description The only level (default).
                 * @enum {string}
                 */
                level?: "balanced";
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * video-compress
         * @description Compress a video (H.264 CRF 28, at most 70 % of the source's video bitrate; AAC up to 96 kbit/s) in MP4, same size and duration.
         */
        BatchVideoCompressRequest: {
            /** @constant */
            operation: "video-compress";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options?: {
                /**
                 * @description The only level (default).
                 * @enum {string}
                 */
                level?: "balanced";
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * ocr-text
         * @description Recognise the text of a scanned or mixed PDF, or of an image, as plain UTF-8 text (pages separated by a form feed). Pages that already have a text layer keep their own text.
         */
        BatchOcrTextRequest: {
            /** @constant */
            operation: "ocr-text";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options?: {
                /** @description The language of the text: a Tesseract language code (`eng`), or up to three joined by `+` (`eng+deu`). Default: the first of the server's installed languages (`eng` unless configured). A language this server has not installed is refused with 422 naming `options.language` and listing the installed ones. */
                language?: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * ocr-docx
         * @description Recognise the text of a scanned or mixed PDF, or of an image, as a Word document (DOCX): one page per source page, one paragraph per block of text.
         */
        BatchOcrDocxRequest: {
            /** @constant */
            operation: "ocr-docx";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options?: {
                /** @description The language of the text: a Tesseract language code (`eng`), or up to three joined by `+` (`eng+deu`). Default: the first of the server's installed languages (`eng` unless configured). A language this server has not installed is refused with 422 naming `options.language` and listing the installed ones. */
                language?: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * ocr-pdf
         * @description Make a scanned or mixed PDF, or an image, searchable: each page as it was with an invisible text layer; pages that already have text are kept unchanged.
         */
        BatchOcrPdfRequest: {
            /** @constant */
            operation: "ocr-pdf";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options?: {
                /** @description The language of the text: a Tesseract language code (`eng`), or up to three joined by `+` (`eng+deu`). Default: the first of the server's installed languages (`eng` unless configured). A language this server has not installed is refused with 422 naming `options.language` and listing the installed ones. */
                language?: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * transcribe
         * @description Transcribe the speech of an audio file or of a video's first audio track, with word timestamps and anonymous speakers (`SPEAKER_1`, …). Priced per started minute of the decoded duration. Result formats: docs/processing.md, "Transcription".
         */
        BatchTranscribeRequest: {
            /** @constant */
            operation: "transcribe";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options?: {
                /** @description The result file (default `txt`; capitals accepted): `txt` speaker-labelled paragraphs, `docx` the same as a Word document, `srt` and `vtt` subtitles (at most 2 lines of 42 characters and 6 s per cue, never overlapping, speaker labels), `json` the `TranscriptJson` schema (`TranscriptJson`: language, duration, segments with speaker, words with start, end and confidence). */
                output_format?: string;
                /** @description The spoken language as an ISO 639-1 code (`en`, `de`, `ja`; `haw` and `yue` for the two languages without one). Default: detected from the audio (per chunk of a long file; the transcript's `language` is the one most of its words were heard in). A code the engine does not know is refused with 422 naming `options.language`. */
                language?: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * meeting
         * @description Transcribe a meeting (audio, or a video's first audio track) and write the meeting document twice, as DOCX and as JSON: speakers with talk time, a timeline of turns, a summary, and the transcript with speakers. Priced per started minute of the decoded duration. docs/processing.md, "Meeting".
         */
        BatchMeetingRequest: {
            /** @constant */
            operation: "meeting";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            options?: {
                /** @description The spoken language as an ISO 639-1 code (`en`, `de`, `ja`; `haw` and `yue` for the two languages without one). Default: detected from the audio (per chunk of a long file; the transcript's `language` is the one most of its words were heard in). A code the engine does not know is refused with 422 naming `options.language`. */
                language?: string;
            };
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /**
         * flow-extract
         * @description Extract named fields and line items from PDFs, images and UTF-8 text (1 to 20 documents, one row per document): each value with the evidence it was read from, checked against the source by the platform; `review_required` where a check failed. Results: XLSX, the CSV files in one ZIP, and JSON (`ExtractionJson`). Send `fields` (and optional `instructions`), or a `workflow_id` whose settings take precedence. An e-invoice (a PDF with its CII or UBL XML embedded: Factur-X, ZUGFeRD, XRechnung; or that XML, or a FatturaPA, uploaded as text) is read from its XML: evidence `source` `xml` with the element's `path`. 25 credits per page. docs/processing.md, "Field extraction" and "E-invoices".
         */
        BatchFlowExtractRequest: ({
            /** @description The values to extract, as field names (unique whatever their case; items, warnings, evidence, review_required, human_review are reserved). Required unless `workflow_id` is sent. */
            fields?: (string & (unknown & unknown))[];
            /** @description Free text for the engine (e.g. "dates are US month/day"); data, never a rule it must obey over its own. */
            instructions?: string;
            /** @description A saved workflow of your company (`/api/company/workflows`): its fields, instructions and options are used instead of the body's. Unknown, another company's or deleted: 404 naming `workflow_id`. */
            workflow_id?: string;
            /** @constant */
            operation: "flow-extract";
            /** @description Shorthand: one child job per upload (an upload may repeat). */
            upload_ids?: components["schemas"]["UploadId"][];
            /** @description One child job per item, in this order (`item_index` from 0). */
            items?: {
                upload_ids: components["schemas"]["UploadId"][];
            }[];
            /** @description No options in this release: `{}` or absent. */
            options?: Record<string, never>;
            /** @description Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this. */
            max_credits?: number;
            /** @description An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, another company's, disabled or deleted: 404 naming `webhook_id`. */
            webhook_id?: components["schemas"]["WebhookId"];
            /**
             * @description Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.
             * @default batch
             * @enum {string}
             */
            webhook_mode?: "batch" | "items" | "both";
        } | {
            fields: unknown;
        } | {
            workflow_id: unknown;
        }) & ({
            upload_ids: unknown;
        } | {
            items: unknown;
        });
        /** @description A webhook to register. */
        WebhookCreate: {
            /** @description A public HTTPS URL (surrounding whitespace is ignored), at most 2048 characters. */
            url: string & (unknown & unknown);
        };
        SignIn: {
            email: string & (unknown & unknown);
            password: string;
        };
        InvitationAccept: {
            /** @description The token of the invitation e-mail. */
            token: string;
            /** @description The account's new password: 12 to 256 characters once NFKC-normalised (`x-nfkc-length`); length matters, composition rules do not. */
            password: string;
        };
        KeyCreate: {
            /** @description A name for the key, 1 to 80 characters after trimming. */
            name: string;
            scopes: ("read" | "write")[];
            expires_at?: number;
        };
        InvitationCreate: {
            email: string & (unknown & unknown);
            /**
             * @default member
             * @enum {string}
             */
            role?: "member" | "billing_admin";
        };
        PackPurchaseCreate: {
            /** @enum {string} */
            network: "base" | "polygon" | "arbitrum" | "optimism" | "ethereum" | "avalanche" | "solana";
            /** @description The wallet you will pay from (EVM: 0x and 40 hex, EIP-55 if mixed case; Solana: base58 owner address). */
            payer: string;
            pack: string;
        };
        SavedWorkflowCreate: {
            /** @description Unique in the company (whatever the case); surrounding whitespace is ignored. */
            name: string & (unknown & unknown);
            /**
             * @description Document extraction only (the default).
             * @default flow-extract
             * @enum {string}
             */
            operation?: "flow-extract";
            /** @description The fields to extract: unique whatever their case; items, warnings, evidence, review_required, human_review are reserved. */
            fields: (string & (unknown & unknown))[];
            /**
             * @description Free text for the extraction; null for none.
             * @default null
             */
            instructions?: string | null;
            /**
             * @description `flow-extract` takes no options in this release: `{}`.
             * @default {}
             */
            options?: Record<string, never>;
        };
        SavedWorkflowUpdate: {
            /** @description Unique in the company (whatever the case); surrounding whitespace is ignored. */
            name?: string & (unknown & unknown);
            /** @description The fields to extract: unique whatever their case; items, warnings, evidence, review_required, human_review are reserved. */
            fields?: (string & (unknown & unknown))[];
            /** @description Free text for the extraction; null for none. */
            instructions?: string | null;
            /** @description `flow-extract` takes no options in this release: `{}`. */
            options?: Record<string, never>;
        };
        ExtractionCorrections: {
            revision: number;
            corrections: {
                /** @description The 0-based index of the input document. */
                document: number;
                /** @description One of the job's fields (line items are not corrected). */
                field: string;
                value: string | null;
            }[];
        };
        /** @description Job id: `job_` and 20 letters or digits. */
        JobId: string;
        /** @description Batch id: `bat_` and 20 letters or digits. */
        BatchId: string;
        /**
         * @description Operations this release runs.
         * @enum {string}
         */
        Operation: "pdf-extract" | "pdf-delete" | "pdf-rotate" | "pdf-protect" | "pdf-unlock" | "pdf-watermark" | "pdf-number" | "pdf-merge" | "image-edit" | "image-compress" | "webp" | "audio-trim" | "video-trim" | "video-rotate" | "video-resize" | "audio-compress" | "video-compress" | "ocr-text" | "ocr-docx" | "ocr-pdf" | "transcribe" | "meeting" | "flow-extract";
        Estimate: {
            operation: components["schemas"]["Operation"];
            /** @description The quote: what `POST /v1/jobs` reserves now and charges on success. */
            estimated_credits: number;
            /** @description What the server measured of each source, and its share of the quote. */
            sources: {
                upload_id: components["schemas"]["UploadId"];
                bytes: number;
                /** @description For `pdf-unlock`, the pages counted after opening the PDF with the password. */
                pages: number;
                duration_seconds: number | null;
                credits: number;
            }[];
        };
        LedgerEntry: {
            /** @description Increases with every entry of the platform; the feed cursor. */
            id: number;
            /**
             * @description `grant`: credits added (available += amount). `reserve`: a job's quote held at submission (available -= amount, reserved += amount). `charge`: the quote of a completed job spent (reserved -= amount). `release`: the quote of a failed or cancelled job returned (reserved -= amount, available += amount). A reservation is charged or released at most once.
             * @enum {string}
             */
            kind: "grant" | "reserve" | "charge" | "release";
            /** @description Credits moved (always positive; the kind says which way). */
            amount: number;
            /** @description The job of a reserve, charge or release; null for grants. */
            job_id: string | null;
            /** @description Grants: `trial`, a plan, a pack or an operator's note. Releases: `job_cancelled` for a cancelled job, null for a failed one. */
            reason: string | null;
            /** Format: date-time */
            created_at: string;
        };
        Credits: {
            /** @description Credits new jobs can reserve. */
            available: number;
            /** @description Credits held by queued and processing jobs. */
            reserved: number;
            ledger: {
                /** @description Oldest first. */
                data: components["schemas"]["LedgerEntry"][];
                /** @description Pass as `after` to read the entries after these. */
                next_cursor: number;
            };
        };
        Upload: {
            id: components["schemas"]["UploadId"];
            /** @description Your file name for display, decoded as UTF-8, in Unicode normal form C: no directories, no control, line-separator or bidirectional-formatting characters (removed). */
            filename: string;
            /**
             * @description Identified from the content, never from the name or declared type.
             * @enum {string}
             */
            kind: "pdf" | "image" | "text" | "audio" | "video";
            /** @description The registered media type of the content: application/pdf, text/plain; charset=utf-8, image/jpeg, image/png, image/webp, image/gif, image/tiff, image/avif, image/heic, video/mp4 or audio/mp4 (MP4, M4A), video/quicktime, video/3gpp, audio/mpeg (MP3), audio/wav, audio/ogg or video/ogg, audio/flac, audio/aac, audio/AMR, video/webm or audio/webm, video/matroska or audio/matroska, video/mp2t, video/mpeg or audio/mpeg (MPEG program stream), video/x-msvideo (AVI, which has no registered type). Audio and video in any other container is refused (422), as are playlists and manifests that name other files (HLS, DASH, ffconcat). */
            mime_type: string;
            bytes: number;
            /** @description PDF pages (0 when encrypted), 1 for an image, one per started 4,000 bytes of text, 0 for media. */
            pages: number;
            /** @description Media duration; null for documents and images. */
            duration_seconds: number | null;
            /** @description An encrypted PDF; only `pdf-unlock` accepts it. */
            encrypted: boolean;
            /** @description Images: width in pixels as displayed (after the EXIF orientation); `crop` is taken in these coordinates. Videos: the video stream's width as displayed (after its rotation flag). Null for other kinds. */
            width: number | null;
            /** @description Images and videos: height in pixels as displayed. Null for other kinds. */
            height: number | null;
            sha256: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description Sources are kept 7 days.
             */
            expires_at: string;
        };
        UploadList: {
            /** @description In the order the files were sent. */
            uploads: components["schemas"]["Upload"][];
        };
        ListedUpload: {
            id: components["schemas"]["UploadId"];
            /** @description Your file name for display, decoded as UTF-8, in Unicode normal form C: no directories, no control, line-separator or bidirectional-formatting characters (removed). */
            filename: string;
            /**
             * @description Identified from the content, never from the name or declared type.
             * @enum {string}
             */
            kind: "pdf" | "image" | "text" | "audio" | "video";
            /** @description The registered media type of the content: application/pdf, text/plain; charset=utf-8, image/jpeg, image/png, image/webp, image/gif, image/tiff, image/avif, image/heic, video/mp4 or audio/mp4 (MP4, M4A), video/quicktime, video/3gpp, audio/mpeg (MP3), audio/wav, audio/ogg or video/ogg, audio/flac, audio/aac, audio/AMR, video/webm or audio/webm, video/matroska or audio/matroska, video/mp2t, video/mpeg or audio/mpeg (MPEG program stream), video/x-msvideo (AVI, which has no registered type). Audio and video in any other container is refused (422), as are playlists and manifests that name other files (HLS, DASH, ffconcat). */
            mime_type: string;
            bytes: number;
            /** @description PDF pages (0 when encrypted), 1 for an image, one per started 4,000 bytes of text, 0 for media. */
            pages: number;
            /** @description Media duration; null for documents and images. */
            duration_seconds: number | null;
            /** @description An encrypted PDF; only `pdf-unlock` accepts it. */
            encrypted: boolean;
            /** @description Images: width in pixels as displayed (after the EXIF orientation); `crop` is taken in these coordinates. Videos: the video stream's width as displayed (after its rotation flag). Null for other kinds. */
            width: number | null;
            /** @description Images and videos: height in pixels as displayed. Null for other kinds. */
            height: number | null;
            sha256: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description Sources are kept 7 days.
             */
            expires_at: string;
            /** @description A queued or processing job reads it; `DELETE /v1/uploads/{upload_id}` answers 409 until that job ends. */
            in_use: boolean;
            /** @description Your jobs that name it (not deleted, in any state; a batch's child jobs included). */
            job_count: number;
            /** @description The distinct batches among those jobs. */
            batch_count: number;
        };
        UploadPage: {
            /** @description Newest first. */
            data: components["schemas"]["ListedUpload"][];
            /** @description Pass as `before` for the next page; null when this page is not full (no more). */
            next_cursor: string | null;
        };
        ResultFile: {
            name: string;
            /** @description GET it with your API key. */
            download_path: string;
            bytes: number;
            content_type: string;
        };
        /** @description A job, by `status`: `queued` → `processing` → `completed` or `failed` (terminal). A temporary provider outage moves a job back to `queued`. A queued job you cancel (`POST /v1/jobs/{job_id}/cancel`) becomes `cancelled` (terminal; its reservation released). `result` is set exactly when the job is completed; `error` and `error_code` exactly when it failed. */
        Job: {
            id: components["schemas"]["JobId"];
            /** @description The batch this job is an item of (`GET /v1/batches/{batch_id}`); null for a job submitted alone. */
            batch_id: components["schemas"]["BatchId"] | null;
            operation: components["schemas"]["Operation"];
            upload_ids: components["schemas"]["UploadId"][];
            /** @description The options as validated, without secrets (a password is never shown). */
            options: {
                [key: string]: unknown;
            };
            /** @description `flow-extract`: what the job reads, as it was quoted (a saved workflow's settings and the revision used); null for other operations. */
            extraction: {
                fields: string[];
                instructions: string | null;
                workflow_id: string | null;
                workflow_revision: number | null;
            } | null;
            /** @description The quote reserved at submission. */
            estimated_credits: number;
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            /** @description The webhook the job's terminal event is sent to, as submitted; null when none. */
            webhook_id: components["schemas"]["WebhookId"] | null;
            /** @enum {string} */
            status: "queued" | "processing";
            charged_credits: null;
            finished_at: null;
            error: null;
            error_code: null;
            result: null;
        } | {
            id: components["schemas"]["JobId"];
            /** @description The batch this job is an item of (`GET /v1/batches/{batch_id}`); null for a job submitted alone. */
            batch_id: components["schemas"]["BatchId"] | null;
            operation: components["schemas"]["Operation"];
            upload_ids: components["schemas"]["UploadId"][];
            /** @description The options as validated, without secrets (a password is never shown). */
            options: {
                [key: string]: unknown;
            };
            /** @description `flow-extract`: what the job reads, as it was quoted (a saved workflow's settings and the revision used); null for other operations. */
            extraction: {
                fields: string[];
                instructions: string | null;
                workflow_id: string | null;
                workflow_revision: number | null;
            } | null;
            /** @description The quote reserved at submission. */
            estimated_credits: number;
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            /** @description The webhook the job's terminal event is sent to, as submitted; null when none. */
            webhook_id: components["schemas"]["WebhookId"] | null;
            /** @constant */
            status: "completed";
            /** @description The quote, charged on success. */
            charged_credits: number;
            /**
             * Format: date-time
             * @description When the job reached this terminal state.
             */
            finished_at: string;
            error: null;
            error_code: null;
            result: {
                files: components["schemas"]["ResultFile"][];
                /** @description Results are kept 7 days. */
                expires_at: string | null;
                /** @description What you should know about the results, in words; usually empty. OCR (`ocr-text`, `ocr-docx`, `ocr-pdf`): each page read with a mean word confidence under 60 %, e.g. `page 2 is hard to read (text recognition confidence 21 %); its text is likely wrong or missing`, else each page with 15 % or more of its print blurred, e.g. `page 3 is partly blurred (40 % of its print has no sharp edge); its text is likely incomplete`. */
                warnings: string[];
            };
        } | {
            id: components["schemas"]["JobId"];
            /** @description The batch this job is an item of (`GET /v1/batches/{batch_id}`); null for a job submitted alone. */
            batch_id: components["schemas"]["BatchId"] | null;
            operation: components["schemas"]["Operation"];
            upload_ids: components["schemas"]["UploadId"][];
            /** @description The options as validated, without secrets (a password is never shown). */
            options: {
                [key: string]: unknown;
            };
            /** @description `flow-extract`: what the job reads, as it was quoted (a saved workflow's settings and the revision used); null for other operations. */
            extraction: {
                fields: string[];
                instructions: string | null;
                workflow_id: string | null;
                workflow_revision: number | null;
            } | null;
            /** @description The quote reserved at submission. */
            estimated_credits: number;
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            /** @description The webhook the job's terminal event is sent to, as submitted; null when none. */
            webhook_id: components["schemas"]["WebhookId"] | null;
            /** @constant */
            status: "failed";
            /**
             * @description Nothing is charged: the reservation was released.
             * @constant
             */
            charged_credits: 0;
            /**
             * Format: date-time
             * @description When the job reached this terminal state.
             */
            finished_at: string;
            /** @description Why the job failed, in words. */
            error: string;
            /**
             * @description Stable code of the failure.
             * @enum {string}
             */
            error_code: "invalid_source" | "source_missing" | "provider_unavailable" | "processing_error" | "processing_timeout";
            result: null;
        } | {
            id: components["schemas"]["JobId"];
            /** @description The batch this job is an item of (`GET /v1/batches/{batch_id}`); null for a job submitted alone. */
            batch_id: components["schemas"]["BatchId"] | null;
            operation: components["schemas"]["Operation"];
            upload_ids: components["schemas"]["UploadId"][];
            /** @description The options as validated, without secrets (a password is never shown). */
            options: {
                [key: string]: unknown;
            };
            /** @description `flow-extract`: what the job reads, as it was quoted (a saved workflow's settings and the revision used); null for other operations. */
            extraction: {
                fields: string[];
                instructions: string | null;
                workflow_id: string | null;
                workflow_revision: number | null;
            } | null;
            /** @description The quote reserved at submission. */
            estimated_credits: number;
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            /** @description The webhook the job's terminal event is sent to, as submitted; null when none. */
            webhook_id: components["schemas"]["WebhookId"] | null;
            /** @constant */
            status: "cancelled";
            /**
             * @description Nothing is charged: the reservation was released.
             * @constant
             */
            charged_credits: 0;
            /**
             * Format: date-time
             * @description When the job reached this terminal state.
             */
            finished_at: string;
            error: null;
            error_code: null;
            result: null;
        };
        JobList: {
            /** @description Newest first. */
            data: components["schemas"]["Job"][];
            /** @description Pass as `before` for the next page; null when this page is not full (no more). */
            next_cursor: string | null;
        };
        /** @description A child job of a batch: the job as `GET /v1/jobs/{job_id}` shows it, its position in the batch, and `deleted_at`. A child the client deleted (`DELETE /v1/jobs/{job_id}`) keeps its state and credits, has `result: null` (its files are gone) and is 404 on its own: a completed child has `result: null` exactly when `deleted_at` is set. */
        BatchJob: {
            item_index: number;
            id: components["schemas"]["JobId"];
            /** @description The batch this job is an item of (`GET /v1/batches/{batch_id}`); null for a job submitted alone. */
            batch_id: components["schemas"]["BatchId"] | null;
            operation: components["schemas"]["Operation"];
            upload_ids: components["schemas"]["UploadId"][];
            /** @description The options as validated, without secrets (a password is never shown). */
            options: {
                [key: string]: unknown;
            };
            /** @description `flow-extract`: what the job reads, as it was quoted (a saved workflow's settings and the revision used); null for other operations. */
            extraction: {
                fields: string[];
                instructions: string | null;
                workflow_id: string | null;
                workflow_revision: number | null;
            } | null;
            /** @description The quote reserved at submission. */
            estimated_credits: number;
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            /** @description The webhook the job's terminal event is sent to, as submitted; null when none. */
            webhook_id: components["schemas"]["WebhookId"] | null;
            /** @enum {string} */
            status: "queued" | "processing";
            charged_credits: null;
            finished_at: null;
            error: null;
            error_code: null;
            result: null;
            /** @description When the client deleted this child (`DELETE /v1/jobs/{job_id}`); null while it is not deleted. */
            deleted_at: string | null;
        } | {
            item_index: number;
            id: components["schemas"]["JobId"];
            /** @description The batch this job is an item of (`GET /v1/batches/{batch_id}`); null for a job submitted alone. */
            batch_id: components["schemas"]["BatchId"] | null;
            operation: components["schemas"]["Operation"];
            upload_ids: components["schemas"]["UploadId"][];
            /** @description The options as validated, without secrets (a password is never shown). */
            options: {
                [key: string]: unknown;
            };
            /** @description `flow-extract`: what the job reads, as it was quoted (a saved workflow's settings and the revision used); null for other operations. */
            extraction: {
                fields: string[];
                instructions: string | null;
                workflow_id: string | null;
                workflow_revision: number | null;
            } | null;
            /** @description The quote reserved at submission. */
            estimated_credits: number;
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            /** @description The webhook the job's terminal event is sent to, as submitted; null when none. */
            webhook_id: components["schemas"]["WebhookId"] | null;
            /** @constant */
            status: "completed";
            /** @description The quote, charged on success. */
            charged_credits: number;
            /**
             * Format: date-time
             * @description When the job reached this terminal state.
             */
            finished_at: string;
            error: null;
            error_code: null;
            /** @description The results; null once the child is deleted (`deleted_at` set). */
            result: {
                files: components["schemas"]["ResultFile"][];
                /** @description Results are kept 7 days. */
                expires_at: string | null;
                /** @description What you should know about the results, in words; usually empty. OCR (`ocr-text`, `ocr-docx`, `ocr-pdf`): each page read with a mean word confidence under 60 %, e.g. `page 2 is hard to read (text recognition confidence 21 %); its text is likely wrong or missing`, else each page with 15 % or more of its print blurred, e.g. `page 3 is partly blurred (40 % of its print has no sharp edge); its text is likely incomplete`. */
                warnings: string[];
            } | null;
            /** @description When the client deleted this child (`DELETE /v1/jobs/{job_id}`); null while it is not deleted. */
            deleted_at: string | null;
        } | {
            item_index: number;
            id: components["schemas"]["JobId"];
            /** @description The batch this job is an item of (`GET /v1/batches/{batch_id}`); null for a job submitted alone. */
            batch_id: components["schemas"]["BatchId"] | null;
            operation: components["schemas"]["Operation"];
            upload_ids: components["schemas"]["UploadId"][];
            /** @description The options as validated, without secrets (a password is never shown). */
            options: {
                [key: string]: unknown;
            };
            /** @description `flow-extract`: what the job reads, as it was quoted (a saved workflow's settings and the revision used); null for other operations. */
            extraction: {
                fields: string[];
                instructions: string | null;
                workflow_id: string | null;
                workflow_revision: number | null;
            } | null;
            /** @description The quote reserved at submission. */
            estimated_credits: number;
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            /** @description The webhook the job's terminal event is sent to, as submitted; null when none. */
            webhook_id: components["schemas"]["WebhookId"] | null;
            /** @constant */
            status: "failed";
            /**
             * @description Nothing is charged: the reservation was released.
             * @constant
             */
            charged_credits: 0;
            /**
             * Format: date-time
             * @description When the job reached this terminal state.
             */
            finished_at: string;
            /** @description Why the job failed, in words. */
            error: string;
            /**
             * @description Stable code of the failure.
             * @enum {string}
             */
            error_code: "invalid_source" | "source_missing" | "provider_unavailable" | "processing_error" | "processing_timeout";
            result: null;
            /** @description When the client deleted this child (`DELETE /v1/jobs/{job_id}`); null while it is not deleted. */
            deleted_at: string | null;
        } | {
            item_index: number;
            id: components["schemas"]["JobId"];
            /** @description The batch this job is an item of (`GET /v1/batches/{batch_id}`); null for a job submitted alone. */
            batch_id: components["schemas"]["BatchId"] | null;
            operation: components["schemas"]["Operation"];
            upload_ids: components["schemas"]["UploadId"][];
            /** @description The options as validated, without secrets (a password is never shown). */
            options: {
                [key: string]: unknown;
            };
            /** @description `flow-extract`: what the job reads, as it was quoted (a saved workflow's settings and the revision used); null for other operations. */
            extraction: {
                fields: string[];
                instructions: string | null;
                workflow_id: string | null;
                workflow_revision: number | null;
            } | null;
            /** @description The quote reserved at submission. */
            estimated_credits: number;
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            /** @description The webhook the job's terminal event is sent to, as submitted; null when none. */
            webhook_id: components["schemas"]["WebhookId"] | null;
            /** @constant */
            status: "cancelled";
            /**
             * @description Nothing is charged: the reservation was released.
             * @constant
             */
            charged_credits: 0;
            /**
             * Format: date-time
             * @description When the job reached this terminal state.
             */
            finished_at: string;
            error: null;
            error_code: null;
            result: null;
            /** @description When the client deleted this child (`DELETE /v1/jobs/{job_id}`); null while it is not deleted. */
            deleted_at: string | null;
        };
        Batch: {
            id: components["schemas"]["BatchId"];
            /**
             * @description `queued` → `processing` (its children started) → `completed` (every child completed), `partial` (at least one of each) or `failed` (every child failed), all terminal.
             * @enum {string}
             */
            status: "queued" | "processing" | "completed" | "partial" | "failed";
            operation: components["schemas"]["Operation"];
            /** @description The options, without secrets. */
            options: {
                [key: string]: unknown;
            };
            item_count: number;
            /** @description The batch whose failed items this one re-runs (`retry-failed`); null otherwise. */
            retry_of: components["schemas"]["BatchId"] | null;
            webhook_id: components["schemas"]["WebhookId"] | null;
            /** @enum {string} */
            webhook_mode: "batch" | "items" | "both";
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            /** @description Children per state (`cancelled`: cancelled while queued with `POST /v1/jobs/{job_id}/cancel`; it counts as not completed). `deleted`: how many ended children the client has deleted since (`DELETE /v1/jobs/{job_id}`); they are counted in their state too, and left out of the results ZIP. */
            progress: {
                total: number;
                queued: number;
                processing: number;
                completed: number;
                failed: number;
                cancelled: number;
                deleted: number;
            };
            /** @description The children's credits: `estimated` (the quote at submission) = `reserved` (still held by unfinished children) + `charged` (completed children) + `released` (failed and cancelled children). */
            credits: {
                estimated: number;
                reserved: number;
                charged: number;
                released: number;
            };
            /** @description The children in item order (this page of them), each with its job metadata as `GET /v1/jobs/{job_id}` shows it. */
            jobs: components["schemas"]["BatchJob"][];
            /** @description More children follow: pass this as `after` for the next page; null on the last page. */
            next_after: number | null;
        };
        /** @description A batch without its children: progress and credits (`GET /v1/batches/{batch_id}` shows the children). */
        BatchSummary: {
            id: components["schemas"]["BatchId"];
            /**
             * @description `queued` → `processing` (its children started) → `completed` (every child completed), `partial` (at least one of each) or `failed` (every child failed), all terminal.
             * @enum {string}
             */
            status: "queued" | "processing" | "completed" | "partial" | "failed";
            operation: components["schemas"]["Operation"];
            /** @description The options, without secrets. */
            options: {
                [key: string]: unknown;
            };
            item_count: number;
            /** @description The batch whose failed items this one re-runs (`retry-failed`); null otherwise. */
            retry_of: components["schemas"]["BatchId"] | null;
            webhook_id: components["schemas"]["WebhookId"] | null;
            /** @enum {string} */
            webhook_mode: "batch" | "items" | "both";
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            /** @description Children per state (`cancelled`: cancelled while queued with `POST /v1/jobs/{job_id}/cancel`; it counts as not completed). `deleted`: how many ended children the client has deleted since (`DELETE /v1/jobs/{job_id}`); they are counted in their state too, and left out of the results ZIP. */
            progress: {
                total: number;
                queued: number;
                processing: number;
                completed: number;
                failed: number;
                cancelled: number;
                deleted: number;
            };
            /** @description The children's credits: `estimated` (the quote at submission) = `reserved` (still held by unfinished children) + `charged` (completed children) + `released` (failed and cancelled children). */
            credits: {
                estimated: number;
                reserved: number;
                charged: number;
                released: number;
            };
        };
        BatchEstimate: {
            operation: components["schemas"]["Operation"];
            /** @description The whole batch's quote: what `POST /v1/batches` reserves (each child its share) and `max_credits` is checked against. */
            estimated_credits: number;
            items: {
                item_index: number;
                upload_ids: components["schemas"]["UploadId"][];
                estimated_credits: number;
            }[];
        };
        /** @description Each source costs `credits_per_unit` × the largest number of started units over `units` (at least `minimum_units`); the quote is the sum over the sources. */
        PriceRule: {
            /** @enum {string} */
            class: "file" | "ocr_text" | "ocr_document" | "extraction" | "transcribe" | "meeting" | "media";
            credits_per_unit: number;
            units: {
                /**
                 * @description What the server measured of the source (see the upload record).
                 * @enum {string}
                 */
                measure: "bytes" | "pages" | "duration_seconds";
                /** @description How much of it makes one unit; a started unit counts whole. */
                per: number;
            }[];
            minimum_units: number;
            description: string;
        };
        Capability: {
            /** @enum {string} */
            id: "pdf-extract" | "pdf-delete" | "pdf-rotate" | "pdf-protect" | "pdf-unlock" | "pdf-watermark" | "pdf-number" | "pdf-merge" | "image-edit" | "image-compress" | "webp" | "audio-trim" | "video-trim" | "video-rotate" | "video-resize" | "audio-compress" | "video-compress" | "ocr-text" | "ocr-docx" | "ocr-pdf" | "flow-extract" | "transcribe" | "meeting";
            summary: string;
            /** @description The upload kinds it accepts. */
            source_kinds: ("pdf" | "image" | "text" | "audio" | "video")[];
            price: components["schemas"]["PriceRule"];
            /** @constant */
            available: true;
            /** @description How many uploads (`upload_ids`) a job takes. */
            sources: {
                min: number;
                max: number;
            };
            /** @description JSON Schema (2020-12) of `options`. */
            options: {
                [key: string]: unknown;
            };
            /** @description Whether the request must carry `options`. */
            options_required: boolean;
            /** @description Extensions of the result files; null where this service has not decided them. */
            output_formats: string[] | null;
        } | {
            /** @enum {string} */
            id: "pdf-extract" | "pdf-delete" | "pdf-rotate" | "pdf-protect" | "pdf-unlock" | "pdf-watermark" | "pdf-number" | "pdf-merge" | "image-edit" | "image-compress" | "webp" | "audio-trim" | "video-trim" | "video-rotate" | "video-resize" | "audio-compress" | "video-compress" | "ocr-text" | "ocr-docx" | "ocr-pdf" | "flow-extract" | "transcribe" | "meeting";
            summary: string;
            /** @description The upload kinds it accepts. */
            source_kinds: ("pdf" | "image" | "text" | "audio" | "video")[];
            price: components["schemas"]["PriceRule"];
            /**
             * @description Not built yet: a request with it is refused with 422.
             * @constant
             */
            available: false;
            sources: null;
            options: null;
            /** @constant */
            options_required: false;
            output_formats: null;
        };
        Capabilities: {
            operations: components["schemas"]["Capability"][];
            limits: {
                upload_files_per_request: number;
                upload_bytes_per_request: number;
                /** @description Bytes of live sources per company. */
                company_source_bytes: number;
                /** @description Pages per PDF. */
                pdf_pages: number;
                /** @description Longest audio or video accepted at upload. */
                media_seconds: number;
                /** @description Largest UTF-8 text source. */
                text_bytes: number;
                /** @description Most pixels of an image source. */
                image_pixels: number;
                /** @description Most work a video tool takes on one source: frames encoded × pixels per frame (the larger of the source's and the output's; a trim counts the frames it keeps). More is refused at the estimate and at submission with 422 naming the source. */
                video_pixel_frames: number;
                /** @description Queued or processing jobs per company; one more is 429 `queue_full`. */
                pending_jobs_per_company: number;
                processing_jobs_per_company: number;
                processing_jobs_platform: number;
                /** @description Sources and results are kept this long. */
                retention_days: number;
                requests_per_minute_per_key: number;
            };
            /** @description The OCR languages of `ocr-text`, `ocr-docx` and `ocr-pdf` (`options.language`); any other is refused at the estimate with 422 naming `options.language`. */
            ocr: {
                /** @description Tesseract language codes installed on this server. */
                languages: string[];
                /** @description The language of a request that names none (the first of `languages`). */
                default_language: string;
                /** @description How many languages one request may join with `+` (`eng+deu`). */
                max_languages_per_request: number;
            };
        };
        SignedIn: {
            /** @description Send it as `X-CSRF-Token` on every mutation. */
            csrf_token: string;
            member: {
                /** @description Member id: `mem_` and 20 letters or digits. */
                id: string;
                email: string;
                /** @enum {string} */
                role: "member" | "billing_admin";
            };
            company: {
                /** @description Company id: `co_` and 20 letters or digits. */
                id: string;
                name: string;
            };
            /** Format: date-time */
            expires_at: string;
        };
        Session: {
            /** @description Send it as `X-CSRF-Token` on every mutation. */
            csrf_token: string;
            member: {
                /** @description Member id: `mem_` and 20 letters or digits. */
                id: string;
                email: string;
                /** @enum {string} */
                role: "member" | "billing_admin";
            };
            company: {
                /** @description Company id: `co_` and 20 letters or digits. */
                id: string;
                name: string;
            };
        };
        Joined: {
            member: {
                /** @description Member id: `mem_` and 20 letters or digits. */
                id: string;
                email: string;
                /** @enum {string} */
                role: "member" | "billing_admin";
            };
            company: {
                /** @description Company id: `co_` and 20 letters or digits. */
                id: string;
                name: string;
            };
        };
        JobPage: {
            /** @description In descending id order (ids are random: not by creation time). */
            data: components["schemas"]["Job"][];
            /** @description Pass as `before` for the next page of this list; null when this page is not full (no more). */
            next_cursor: string | null;
        };
        BatchPage: {
            /** @description In descending id order (ids are random: not by creation time). */
            data: components["schemas"]["BatchSummary"][];
            /** @description Pass as `before` for the next page of this list; null when this page is not full (no more). */
            next_cursor: string | null;
        };
        ExtractionReview: {
            /** @description Job id: `job_` and 20 letters or digits. */
            job_id: string;
            /** @description How many revisions of corrections were made (0: none); send it back with the next corrections. */
            revision: number;
            fields: string[];
            /** @description For each field, the form a correction takes (e.g. `a date as YYYY-MM-DD, e.g. "2026-03-31"`), as a 422 words it. */
            forms: {
                [key: string]: string;
            };
            /** @description Some document still has a flagged value that was not corrected. */
            review_required: boolean;
            documents: {
                index: number;
                document: string;
                upload_id: string | null;
                pages: number;
                review_required: boolean;
                review_reasons: string[];
                warnings: string[];
                fields: {
                    [key: string]: {
                        value: string | null;
                        /** @description What the engine read. */
                        extracted_value: string | null;
                        evidence: {
                            /** @description Null for a value read from an e-invoice's XML (`source` `xml`). */
                            page: number | null;
                            snippet: string;
                            /** @description In PDF points from the page's top-left corner; null on a plain-text page and for XML evidence. */
                            box: {
                                x0: number;
                                y0: number;
                                x1: number;
                                y1: number;
                            } | null;
                            /**
                             * @description The text of `page`, or an element of the e-invoice XML (docs/processing.md "E-invoices").
                             * @enum {string}
                             */
                            source: "page" | "xml";
                            /** @description `source` `xml`: the XML element's path; a sum of several elements (a FatturaPA subtotal or tax) names their paths joined by ` + `. */
                            path: string | null;
                            /** @description `source` `xml`: the XML's file name in the PDF; null for an uploaded XML. */
                            file: string | null;
                        } | null;
                        /** @description The evidence check or a document check (the totals, the dates…) failed: look at it. */
                        flagged: boolean;
                        /** @description Why, each reason once, separated by "; ". */
                        reason: string | null;
                        corrected: boolean;
                    };
                };
                items: {
                    description: {
                        value: string | null;
                        evidence: {
                            /** @description Null for a value read from an e-invoice's XML (`source` `xml`). */
                            page: number | null;
                            snippet: string;
                            /** @description In PDF points from the page's top-left corner; null on a plain-text page and for XML evidence. */
                            box: {
                                x0: number;
                                y0: number;
                                x1: number;
                                y1: number;
                            } | null;
                            /**
                             * @description The text of `page`, or an element of the e-invoice XML (docs/processing.md "E-invoices").
                             * @enum {string}
                             */
                            source: "page" | "xml";
                            /** @description `source` `xml`: the XML element's path; a sum of several elements (a FatturaPA subtotal or tax) names their paths joined by ` + `. */
                            path: string | null;
                            /** @description `source` `xml`: the XML's file name in the PDF; null for an uploaded XML. */
                            file: string | null;
                        } | null;
                        /** @description The evidence check or a document check (the totals, the dates…) failed: look at it. */
                        flagged: boolean;
                        /** @description Why, each reason once, separated by "; ". */
                        reason: string | null;
                    };
                    quantity: {
                        value: string | null;
                        evidence: {
                            /** @description Null for a value read from an e-invoice's XML (`source` `xml`). */
                            page: number | null;
                            snippet: string;
                            /** @description In PDF points from the page's top-left corner; null on a plain-text page and for XML evidence. */
                            box: {
                                x0: number;
                                y0: number;
                                x1: number;
                                y1: number;
                            } | null;
                            /**
                             * @description The text of `page`, or an element of the e-invoice XML (docs/processing.md "E-invoices").
                             * @enum {string}
                             */
                            source: "page" | "xml";
                            /** @description `source` `xml`: the XML element's path; a sum of several elements (a FatturaPA subtotal or tax) names their paths joined by ` + `. */
                            path: string | null;
                            /** @description `source` `xml`: the XML's file name in the PDF; null for an uploaded XML. */
                            file: string | null;
                        } | null;
                        /** @description The evidence check or a document check (the totals, the dates…) failed: look at it. */
                        flagged: boolean;
                        /** @description Why, each reason once, separated by "; ". */
                        reason: string | null;
                    };
                    unit_price: {
                        value: string | null;
                        evidence: {
                            /** @description Null for a value read from an e-invoice's XML (`source` `xml`). */
                            page: number | null;
                            snippet: string;
                            /** @description In PDF points from the page's top-left corner; null on a plain-text page and for XML evidence. */
                            box: {
                                x0: number;
                                y0: number;
                                x1: number;
                                y1: number;
                            } | null;
                            /**
                             * @description The text of `page`, or an element of the e-invoice XML (docs/processing.md "E-invoices").
                             * @enum {string}
                             */
                            source: "page" | "xml";
                            /** @description `source` `xml`: the XML element's path; a sum of several elements (a FatturaPA subtotal or tax) names their paths joined by ` + `. */
                            path: string | null;
                            /** @description `source` `xml`: the XML's file name in the PDF; null for an uploaded XML. */
                            file: string | null;
                        } | null;
                        /** @description The evidence check or a document check (the totals, the dates…) failed: look at it. */
                        flagged: boolean;
                        /** @description Why, each reason once, separated by "; ". */
                        reason: string | null;
                    };
                    amount: {
                        value: string | null;
                        evidence: {
                            /** @description Null for a value read from an e-invoice's XML (`source` `xml`). */
                            page: number | null;
                            snippet: string;
                            /** @description In PDF points from the page's top-left corner; null on a plain-text page and for XML evidence. */
                            box: {
                                x0: number;
                                y0: number;
                                x1: number;
                                y1: number;
                            } | null;
                            /**
                             * @description The text of `page`, or an element of the e-invoice XML (docs/processing.md "E-invoices").
                             * @enum {string}
                             */
                            source: "page" | "xml";
                            /** @description `source` `xml`: the XML element's path; a sum of several elements (a FatturaPA subtotal or tax) names their paths joined by ` + `. */
                            path: string | null;
                            /** @description `source` `xml`: the XML's file name in the PDF; null for an uploaded XML. */
                            file: string | null;
                        } | null;
                        /** @description The evidence check or a document check (the totals, the dates…) failed: look at it. */
                        flagged: boolean;
                        /** @description Why, each reason once, separated by "; ". */
                        reason: string | null;
                    };
                }[];
                /** @description For each line item (same order as `items`), where the whole line is: the page of its description, the union of its cells' boxes on that page and their snippets in reading order; null when no cell has evidence. */
                lines: ({
                    /** @description Null for a value read from an e-invoice's XML (`source` `xml`). */
                    page: number | null;
                    snippet: string;
                    /** @description In PDF points from the page's top-left corner; null on a plain-text page and for XML evidence. */
                    box: {
                        x0: number;
                        y0: number;
                        x1: number;
                        y1: number;
                    } | null;
                    /**
                     * @description The text of `page`, or an element of the e-invoice XML (docs/processing.md "E-invoices").
                     * @enum {string}
                     */
                    source: "page" | "xml";
                    /** @description `source` `xml`: the XML element's path; a sum of several elements (a FatturaPA subtotal or tax) names their paths joined by ` + `. */
                    path: string | null;
                    /** @description `source` `xml`: the XML's file name in the PDF; null for an uploaded XML. */
                    file: string | null;
                } | null)[];
            }[];
            corrections: {
                /** @description Correction id: `exc_` and 20 letters or digits. */
                id: string;
                revision: number;
                document: number;
                field: string;
                previous_value: string | null;
                value: string | null;
                /** @description The member's e-mail address. */
                corrected_by: string;
                /** Format: date-time */
                corrected_at: string;
            }[];
            files: {
                original: {
                    index: number;
                    name: string;
                    download_path: string;
                    bytes: number;
                    content_type: string;
                }[];
                /** @description Empty before the first correction. */
                reviewed: {
                    index: number;
                    name: string;
                    download_path: string;
                    bytes: number;
                    content_type: string;
                }[];
            };
            expires_at: string | null;
        };
        /** @description A webhook of your company. */
        Webhook: {
            /** @description Webhook id: `whe_` and 20 letters or digits. */
            id: string;
            url: string;
            events: ("job.completed" | "job.failed" | "batch.completed" | "batch.partial" | "batch.failed")[];
            /** @enum {string} */
            status: "enabled" | "disabled";
            key_version: number;
            /** Format: date-time */
            created_at: string;
        };
        /** @description The registered webhook with its signing secret (shown once). */
        NewWebhook: {
            /** @description Webhook id: `whe_` and 20 letters or digits. */
            id: string;
            url: string;
            events: ("job.completed" | "job.failed" | "batch.completed" | "batch.partial" | "batch.failed")[];
            /** @enum {string} */
            status: "enabled" | "disabled";
            key_version: number;
            /** Format: date-time */
            created_at: string;
            /** @description The signing secret; shown once. */
            secret: string;
        };
        RotatedWebhook: {
            /** @description Webhook id: `whe_` and 20 letters or digits. */
            id: string;
            key_version: number;
            secret: string;
        };
        DeletedWebhook: {
            /** @description Webhook id: `whe_` and 20 letters or digits. */
            id: string;
            /** @constant */
            status: "deleted";
            /** Format: date-time */
            deleted_at: string;
        };
        WebhookList: {
            data: components["schemas"]["Webhook"][];
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
            expires_at: string | null;
            /** Format: date-time */
            created_at: string;
            last_used_at: string | null;
            revoked_at: string | null;
            /** @description The member who created the key (`mem_…`); removing that member revokes it. */
            created_by: string | null;
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
            expires_at: string | null;
            /** Format: date-time */
            created_at: string;
            last_used_at: string | null;
            revoked_at: string | null;
            /** @description The member who created the key (`mem_…`); removing that member revokes it. */
            created_by: string | null;
            /** @description Shown once. */
            secret: string;
        };
        KeyList: {
            data: components["schemas"]["Key"][];
        };
        Invitation: {
            /** @description Invitation id: `cin_` and 20 letters or digits. */
            id: string;
            email: string;
            /** @enum {string} */
            role: "member" | "billing_admin";
            /** @description Member id: `mem_` and 20 letters or digits. */
            invited_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
        };
        RevokedInvitation: {
            /** @description Invitation id: `cin_` and 20 letters or digits. */
            id: string;
            email: string;
            /** @enum {string} */
            role: "member" | "billing_admin";
            /** @description Member id: `mem_` and 20 letters or digits. */
            invited_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            /** Format: date-time */
            revoked_at: string;
        };
        InvitationList: {
            data: components["schemas"]["Invitation"][];
        };
        MemberList: {
            data: {
                /** @description Member id: `mem_` and 20 letters or digits. */
                id: string;
                email: string;
                /** @enum {string} */
                role: "member" | "billing_admin";
                /** Format: date-time */
                created_at: string;
            }[];
        };
        Removed: {
            /** @description Member id: `mem_` and 20 letters or digits. */
            id: string;
            /** Format: date-time */
            removed_at: string;
            revoked_keys: number;
            /** @description Open invitations the member had issued, revoked with the membership. */
            revoked_invitations: number;
        };
        CreditPacks: {
            packs: {
                id: string;
                credits: string;
                price_usdc: string;
            }[];
            purchase_networks: ("base" | "polygon" | "arbitrum" | "optimism" | "ethereum" | "avalanche" | "solana")[];
            /**
             * @description Card checkout is an operator grant until a card processor is configured.
             * @constant
             */
            card_checkout: false;
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
        SavedWorkflow: {
            /** @description Saved workflow id: `wfl_` and 20 letters or digits. */
            id: string;
            /** @description Unique in the company (whatever the case). */
            name: string;
            /** @enum {string} */
            operation: "flow-extract";
            /** @description The fields to extract. */
            fields: string[];
            /** @description Free text for the extraction; null for none. */
            instructions: string | null;
            /** @description `flow-extract` takes no options in this release: `{}`. */
            options: {
                [key: string]: unknown;
            };
            revision: number;
            /** @description Member id: `mem_` and 20 letters or digits. */
            created_by: string;
            /** @description Member id: `mem_` and 20 letters or digits. */
            updated_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        SavedWorkflowList: {
            data: components["schemas"]["SavedWorkflow"][];
        };
        DeletedSavedWorkflow: {
            /** @description Saved workflow id: `wfl_` and 20 letters or digits. */
            id: string;
            /** @constant */
            status: "deleted";
            /** Format: date-time */
            deleted_at: string;
        };
        Delivery: {
            /** @description Delivery id: `dlv_` and 20 letters or digits. */
            id: string;
            /** @description Webhook id: `whe_` and 20 letters or digits. */
            webhook_id: string;
            event_id: string;
            event_type: string;
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
            /** @description Webhook id: `whe_` and 20 letters or digits. */
            webhook_id: string;
            event_id: string;
            event_type: string;
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
        OpenApiDocument: {
            openapi: string;
            paths: {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
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
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Invalid body or query; `issues` names each field. */
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
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Invalid body or query; `issues` names each field. */
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
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitationAccept"];
            };
        };
        responses: {
            /** @description Joined. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Joined"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A company limit or rule: see `code`. */
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
            /** @description Invalid body or query; `issues` names each field. */
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
    listJobs: {
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
            /** @description A page of jobs. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobPage"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Invalid body or query; `issues` names each field. */
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
    listUploads: {
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
            /** @description A page of uploads. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadPage"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Invalid body or query; `issues` names each field. */
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
    listBatches: {
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
            /** @description A page of batches. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchPage"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Invalid body or query; `issues` names each field. */
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
    getJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Job id (`job_…`).
                 * @example job_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
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
    downloadResult: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Job id (`job_…`).
                 * @example job_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                job_id: string;
                /**
                 * @description The 0-based position in `result.files`.
                 * @example 0
                 */
                index: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A company limit or rule: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The results passed retention. */
            410: {
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
    getBatch: {
        parameters: {
            query?: {
                /** @description Children per page, 1 to 100 (default 100). */
                limit?: number;
                /** @description The first `item_index` of the page (default 0): the `next_after` of the previous page. */
                after?: number;
            };
            header?: never;
            path: {
                /**
                 * @description Batch id (`bat_…`).
                 * @example bat_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                batch_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Batch"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body or query; `issues` names each field. */
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
    downloadBatchResults: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Batch id (`bat_…`).
                 * @example bat_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                batch_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ZIP. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": string;
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A company limit or rule: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The results passed retention. */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over 1 GB. */
            413: {
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
    retryFailedBatchItems: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Batch id (`bat_…`).
                 * @example bat_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                batch_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Accepted: the failed items are queued again as a new batch (its path in `Location`). */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description `/api/company/batches/{id}` of the new batch. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Batch"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not enough credits for the new quote. */
            402: {
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
            /** @description Not found in your company. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A company limit or rule: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A source of a failed item is past its 7-day retention. */
            410: {
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
            /** @description Invalid body or query; `issues` names each field. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over a request limit, or the queue limit. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCredits: {
        parameters: {
            query?: {
                /** @description Return entries with a greater id (default 0: from the first). */
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
            /** @description Credits. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Credits"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Invalid body or query; `issues` names each field. */
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
    getExtractionReview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Job id (`job_…`).
                 * @example job_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The review. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExtractionReview"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A company limit or rule: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The results passed retention. */
            410: {
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
    correctExtraction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Job id (`job_…`).
                 * @example job_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                job_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExtractionCorrections"];
            };
        };
        responses: {
            /** @description The review at its new revision. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExtractionReview"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A company limit or rule: see `code`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The results passed retention. */
            410: {
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
            /** @description Invalid body or query; `issues` names each field. */
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
    listKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyList"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
    createKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["KeyCreate"];
            };
        };
        responses: {
            /** @description Created; the secret is shown once. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewKey"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description A company limit or rule: see `code`. */
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
            /** @description Invalid body or query; `issues` names each field. */
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
            header?: never;
            path: {
                /**
                 * @description API key id (`key_…`).
                 * @example key_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                key_id: string;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Key"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
            404: {
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
            /** @description Invalid body or query; `issues` names each field. */
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
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The members. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberList"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Member id (`mem_…`).
                 * @example mem_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                member_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Removed. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Removed"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A company limit or rule: see `code`. */
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
            /** @description Invalid body or query; `issues` names each field. */
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
    listInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Open invitations, newest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationList"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
    invite: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitationCreate"];
            };
        };
        responses: {
            /** @description Invited: the invitation was e-mailed to the address (its token is in that e-mail only). */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invitation"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description A company limit or rule: see `code`. */
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
            /** @description Invalid body (`issues` names each field), or the mail server refused the address (`issues` names `email`). */
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
            /** @description The invitation e-mail was not sent (no invitation was made), or the database is unavailable: retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying; absent when this server sends no e-mail at all. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Invitation id (`cin_…`).
                 * @example cin_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                invitation_id: string;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevokedInvitation"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
            404: {
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
            /** @description Invalid body or query; `issues` names each field. */
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
    listSavedWorkflows: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Saved workflows. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedWorkflowList"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
    createSavedWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SavedWorkflowCreate"];
            };
        };
        responses: {
            /** @description Saved. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedWorkflow"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description A company limit or rule: see `code`. */
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
            /** @description Invalid body or query; `issues` names each field. */
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
    getSavedWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Saved workflow id (`wfl_…`).
                 * @example wfl_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                workflow_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The saved workflow. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedWorkflow"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
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
    updateSavedWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Saved workflow id (`wfl_…`).
                 * @example wfl_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                workflow_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SavedWorkflowUpdate"];
            };
        };
        responses: {
            /** @description Changed. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedWorkflow"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A company limit or rule: see `code`. */
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
            /** @description Invalid body or query; `issues` names each field. */
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
    deleteSavedWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Saved workflow id (`wfl_…`).
                 * @example wfl_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                workflow_id: string;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedSavedWorkflow"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
            404: {
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
            /** @description Invalid body or query; `issues` names each field. */
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
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookCreate"];
            };
        };
        responses: {
            /** @description Registered; the secret is shown once. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description The webhook under `/api/company/webhooks`. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewWebhook"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description A company limit or rule: see `code`. */
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
            /** @description Invalid body or query; `issues` names each field. */
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
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Enabled and disabled webhooks (deleted ones are gone). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Webhook id (`whe_…`).
                 * @example whe_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook (never its secret). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
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
    disableWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Webhook id (`whe_…`).
                 * @example whe_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                webhook_id: string;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
            404: {
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
            /** @description Invalid body or query; `issues` names each field. */
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
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Webhook id (`whe_…`).
                 * @example whe_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                webhook_id: string;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedWebhook"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
            404: {
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
            /** @description Invalid body or query; `issues` names each field. */
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
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Webhook id (`whe_…`).
                 * @example whe_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Rotated. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedWebhook"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
            404: {
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
            /** @description Invalid body or query; `issues` names each field. */
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
            /** @description A page of deliveries (never a body). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryPage"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Invalid body or query; `issues` names each field. */
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
                 * @example dlv_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery and every attempt. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryDetail"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
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
    listCreditPacks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The packs. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreditPacks"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
    listCreditPackPurchases: {
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
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Invalid body or query; `issues` names each field. */
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
    buyCreditPack: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PackPurchaseCreate"];
            };
        };
        responses: {
            /** @description Awaiting payment. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Purchase"];
                };
            };
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A company limit or rule: see `code`. */
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
            /** @description Invalid body or query; `issues` names each field. */
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
    getCreditPackPurchase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Purchase id (`pur_…`).
                 * @example pur_Ab3Ab3Ab3Ab3Ab3Ab3Cd
                 */
                purchase_id: string;
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
            /** @description Not signed in (or a credential in the URL). */
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
            /** @description Not found in your company. */
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
    getOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
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
