// mfe-cart: a remote; the shell registers it at runtime from /mfe-manifest.json.
const { createWebpackConfig } = require('@tiffin/build-config');

module.exports = createWebpackConfig({
  projectDir: __dirname,
  federationName: 'mfe_cart',
  exposes: {
    './App': './src/remote-entry.ts',
    // The header's cart flyout, mounted by the shell.
    './HeaderCart': './src/header-cart-entry.ts',
  },
  // The first screen the edge draws into the cart page's HTML before any script runs
  // (first-paint/): a cart with lines, from the visitor's own cart reply. The cart's other states
  // (empty, a closed restaurant, items unavailable...) paint when the scripts have run.
  firstPaint: {
    templates: 'first-paint',
    styles: [
      '../libs/design-system/src/styles/components.css',
      '../libs/cart-store/src/ui/CartRestaurant.css',
      '../libs/cart-store/src/ui/CartLines.css',
      '../libs/cart-store/src/ui/CouponBox.css',
      '../libs/cart-store/src/ui/CancellationMessage.css',
      '../libs/cart-store/src/ui/Bill.css',
      'src/app/cart.css',
    ],
    routes: {
      cart: 'cart.html',
    },
  },
});
