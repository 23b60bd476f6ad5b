import type { Config } from '../config/schema.js';
import type { Logger } from '../adapters/logging/logger.js';
import type { Db } from '../db/connection.js';
import { buildApp } from './server.js';
import { listen, type HttpServerHandle } from './http/lifecycle.js';
import { buildChainReader, buildPayments } from './deps.js';

export async function startApi(config: Config, db: Db, logger: Logger): Promise<HttpServerHandle> {
  const app = buildApp({ db, logger, config, chainReader: buildChainReader(config), payments: buildPayments(config, db, logger) });
  const handle = await listen(app, config.http.host, config.http.port);
  logger.info({ url: handle.url }, 'API listening');
  return handle;
}
