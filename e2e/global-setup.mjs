// Starts the whole storefront for the browser tests and returns its teardown.
import { join } from 'node:path';
import { root, startStorefront } from './support/storefront.mjs';

export default async function globalSetup() {
  const port = Number(process.env.E2E_PORT || 18080);
  // Below the kernel's ephemeral range (32768-60999), so no outgoing connection can take a
  // service's port before it binds (services/launcher: DEFAULT_GRPC_BASE_PORT).
  const grpcBase = Number(process.env.E2E_GRPC_BASE_PORT || 21051);
  // The edge's admin listener, after the eight services' ports.
  const adminPort = Number(process.env.E2E_ADMIN_PORT || grpcBase + 8);
  const binDir = process.env.TIFFIN_BIN_DIR || join(process.env.CARGO_TARGET_DIR || join(root, 'target'), 'debug');

  const storefront = await startStorefront({
    port,
    grpcBase,
    adminPort,
    binDir,
    logPath: join(root, 'test-results', 'storefront.log'),
    env: {
      CATALOG_RESTAURANTS_PER_CITY: '12',
      // A development storefront (the launcher declares it too): the account tests read OTPs and
      // links from the development outbox (GET /api/dev/sms), which exists only there.
      TIFFIN_ENV: 'development',
      // Deliveries 120 times faster than real time: an order is delivered in about 20 s.
      ORDERS_SIM_SPEED: '120',
      // Every customer of the suite signs up from this one address, more than the 20 codes an
      // hour a real address may ask for; the edge's API tests hold that limit itself.
      EDGE_OTP_LIMIT_PER_HOUR: '200',
      // The order history test places eleven cash orders for one customer in a row, to page
      // through them; the limit on cash orders on their way is held by the orders service's tests.
      ORDERS_COD_ACTIVE_LIMIT: '20',
    },
  });
  // Tests publish microfrontends into this copy of the web build.
  process.env.TIFFIN_E2E_STATIC_DIR = storefront.staticDir;
  // The edge's admin listener, where an operator makes a customer a support agent (POST /agents).
  process.env.TIFFIN_E2E_ADMIN_URL = `http://127.0.0.1:${adminPort}`;
  process.env.TIFFIN_E2E_ROOT = root;

  return () => storefront.stop();
}
