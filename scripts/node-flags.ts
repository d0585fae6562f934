/**
 * The API process's V8 limits that a deployment runs with: the README's *Memory* section and
 * deploy/Dockerfile give them (config-docs.test.ts holds the three to one), and `npm run bench`
 * and `npm run soak` measure the API with them unless told otherwise (`--node-flags`).
 */
export const PRODUCTION_NODE_FLAGS = '--max-old-space-size=192 --max-semi-space-size=8';

/** The `--node-flags` option of `npm run bench` and `npm run soak`, for node:util's parseArgs. */
export const NODE_FLAGS_OPTION = { type: 'string', default: PRODUCTION_NODE_FLAGS } as const;

/** The flags of a `--node-flags` value, each as an argument of its own. */
export const nodeFlagsOf = (value: string): string[] => value.split(/\s+/).filter(Boolean);
