/** The app version, put into the bundle by webpack's DefinePlugin from package.json ('dev' in tests). */
declare const __APP_VERSION__: string | undefined;

export const APP_VERSION: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'dev';
