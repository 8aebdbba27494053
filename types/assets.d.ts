// Ambient module types for non-code imports handled by the bundler (css-loader / style-loader)
// and by Vite during unit tests. Shared by every project's tsconfig so no project redeclares them.
declare module '*.css';
