/**
 * The small part of oidc-provider 9's API we use (the package ships no types, and pulling
 * @types/oidc-provider for a handful of calls is not worth a new dependency).
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface AdapterPayload {
    [key: string]: unknown;
    grantId?: string;
    uid?: string;
    userCode?: string;
    consumed?: unknown;
  }
  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId?: string };
    lastSubmission?: Record<string, unknown>;
    returnTo: string;
  }

  export interface GrantInstance {
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- configuration is a large untyped object
  export type Configuration = Record<string, any>;

  export class Provider {
    constructor(issuer: string, configuration: Configuration);
    issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- model classes are untyped
    Grant: any;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    Client: any;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    RefreshToken: any;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    AuthorizationCode: any;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    use(middleware: (ctx: any, next: () => Promise<void>) => Promise<void>): this;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    on(event: string, listener: (...args: any[]) => void): this;
  }
  export default Provider;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  export const errors: Record<string, any>;
}
