// One signed-in customer (a saved address in Koramangala, a plain dish in the cart) shared by the
// specs that only look at pages: the layout and screenshot tests. Signing up sends an OTP, which
// the edge limits per client address (EDGE_OTP_LIMIT_PER_HOUR, raised for the suite in
// global-setup.mjs), and takes time, so these specs sign up once per worker and open each page in
// a fresh context with its cookies.
import { customerWithCart } from './customer.mjs';

let shared = null;

/** The customer and the storage state (cookies) that signs a browser context in as them. */
export async function sharedCustomer(browser, baseURL) {
  if (shared) return shared;
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const customer = await customerWithCart(page, context, baseURL);
  shared = { ...customer, storageState: await context.storageState() };
  await context.close();
  return shared;
}
