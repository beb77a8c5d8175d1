/**
 * The client's code is written against React's API (`react`, `react-dom/client`, the JSX
 * runtime) and runs on Preact 11 through `preact/compat`: about 10 KB of runtime instead of React
 * DOM's 60 KB on a phone's first visit. The build (webpack.config.ts, resolve.alias) and the
 * client tests (jest.config.js, moduleNameMapper) resolve these module names alike, so the tests
 * run the runtime the farmers get. React's own packages stay installed for their types and as
 * the peers of react-redux and Testing Library.
 */
export const REACT_ON_PREACT = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react-dom/test-utils': 'preact/test-utils',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-runtime',
};
