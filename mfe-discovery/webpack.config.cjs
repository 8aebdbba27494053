// mfe-discovery: a remote; the shell registers it at runtime from /mfe-manifest.json.
const { createWebpackConfig } = require('@tiffin/build-config');

module.exports = createWebpackConfig({
  projectDir: __dirname,
  federationName: 'mfe_discovery',
  exposes: {
    './App': './src/remote-entry.ts',
    // The location sidebar, mounted by the shell on `location:open`.
    './LocationSidebar': './src/location-sidebar-entry.ts',
  },
  // The page chunk (src/app/App.tsx) each route shows first, so a page's HTML can name it:
  // home is the landing page for a new visitor and the listing once they have a location.
  routeChunks: {
    home: ['disc-landing'],
    'home+located': ['disc-listing'],
    'new-home': ['disc-landing'],
    'new-home+located': ['disc-listing'],
    listing: ['disc-listing'],
    'restaurants-near-me': ['disc-listing'],
    'best-restaurants-near-me': ['disc-listing'],
    'cuisine-near-me': ['disc-listing'],
    menu: ['disc-menu'],
    'menu-by-id': ['disc-menu'],
    'menu-index': ['disc-menu'],
    'city-restaurant': ['disc-menu'],
    meal: ['disc-meal'],
    search: ['disc-search'],
    collection: ['disc-collection'],
    offers: ['disc-offers'],
    'offers-near-me': ['disc-offers'],
    city: ['disc-city'],
    'city-best-restaurants': ['disc-city'],
    area: ['disc-city'],
    'city-collection': ['disc-city'],
    'area-collection': ['disc-city'],
  },
  // The first screens the edge draws into a page's HTML before any script runs (first-paint/):
  // the landing page, the plain listing and a menu. Other routes paint when their scripts have run.
  firstPaint: {
    templates: 'first-paint',
    styles: [
      '../libs/design-system/src/styles/components.css',
      'src/common/common.css',
      'src/landing/landing.css',
      'src/location/location.css',
      'src/listing/listing.css',
      'src/menu/menu.css',
    ],
    routes: {
      // The landing page has no shell header above it: it draws its own brand bar.
      home: { template: 'landing.html', header: false },
      'new-home': { template: 'landing.html', header: false },
      auth: { template: 'landing.html', header: false },
      'home+located': 'listing.html',
      'new-home+located': 'listing.html',
      'auth+located': 'listing.html',
      listing: 'listing.html',
      'restaurants-near-me': 'listing.html',
      'best-restaurants-near-me': 'listing.html',
      menu: 'menu.html',
      'menu-by-id': 'menu.html',
      'menu-index': 'menu.html',
      'city-restaurant': 'menu.html',
    },
  },
});
