export { createApi, type Api } from './api';
export { BridgeError, TRANSPORT } from './errors';
export * from './types';
export type { Unsubscribe } from './transport';
export * from './checkpoints';
