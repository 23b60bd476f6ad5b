/** The public payment page of a payment request (served by api/proof/payment-page.routes.ts), a path under the origin. */
export const paymentPagePath = (requestId: string) => `/proof/pay/${requestId}`;
