// See README.md: load the ESM-only 'cookie' with Node's own require (require(esm), Node 20.19+).
/* global require, module, __filename */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS shim by nature
const { createRequire } = require('node:module');
module.exports = createRequire(__filename)('cookie');
