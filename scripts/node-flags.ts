/**
 * The API process's V8 limits that a deployment runs with: the README's *Memory* section and
 * deploy/Dockerfile give them (config-docs.test.ts holds the three to one), and `npm run bench`
 * and `npm run soak` measure the API with them unless told otherwise (`--node-flags`).
 */
export const PRODUCTION_NODE_FLAGS = '--max-old-space-size=192 --max-semi-space-size=8';
