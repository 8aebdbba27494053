// The shell's runtime plugin that hands its federation runtime to the remotes (webpack.cjs,
// `federationExperiments`). Re-exported by package name so webpack takes the library's ES module
// build, which shares the one runtime-core module the shell itself runs. `provideExternalRuntime`
// would add the plugin's CommonJS build instead, and with it a second copy of the runtime.
export { default } from '@module-federation/inject-external-runtime-core-plugin';
