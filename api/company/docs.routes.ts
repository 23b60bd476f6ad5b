import type Router from '@koa/router';
import type { AppState } from '../http/context.js';

export function mountCompanyDocs(_router: Router<AppState>): void {
  // filled in below
}
