declare module 'virtual:api-manifest' {
  /** A `CallManifest<ServiceCalls>`, typed where it is imported: an ambient module cannot import local types. */
  const manifest: unknown;
  export default manifest;
}
