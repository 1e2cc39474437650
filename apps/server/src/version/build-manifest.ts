/**
 * What a release build bakes in: deploy/sea/build.ts defines `__YOUYOU_BUILD__` when it bundles
 * the single executable. Run from the sources or from npm there is none.
 */
export interface BuildManifest {
  version: string;
  commit: string;
  buildDate: string;
  /** SHA-256 of the embedded web UI (every file of apps/web/dist, packed). */
  uiHash: string;
}

declare const __YOUYOU_BUILD__: BuildManifest | undefined;

/**
 * @example
 * if (BUILD_MANIFEST !== undefined) console.log(BUILD_MANIFEST.commit);
 */
export const BUILD_MANIFEST: BuildManifest | undefined =
  typeof __YOUYOU_BUILD__ === 'undefined' ? undefined : __YOUYOU_BUILD__;
