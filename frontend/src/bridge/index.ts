export { createApi, type Api } from './api';
export { BridgeError, TRANSPORT } from './errors';
export { LANGUAGES, type CreateSessionRequest, type Language, type Session, type Settings, type SystemInfo } from './types';
export type { Unsubscribe } from './transport';
