declare module 'virtual:api-manifest' {
  /** A `CallManifest<ServiceCalls>`; typed where it is imported, as ambient modules cannot import local types. */
  const manifest: unknown;
  export default manifest;
}
