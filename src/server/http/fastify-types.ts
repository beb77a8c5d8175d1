/**
 * What buildApp adds to Fastify's types: the data services decorated on the app and the caller
 * resolved per request. Import this module (type-only is enough) where they are used.
 */
import type { Access } from '../access/access';
import type { Principal } from '../auth/principal';
import type { Db, DialectLayer } from '../db/dialect';
import type { LimitCounters } from '../plugins/limit-counters';
import type { FarmerAccounts } from '../repositories/context';
import type { ProjectRepository } from '../repositories/project-repository';
import type { ProjectSchema } from '../project-schema';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Kysely instance (SQLite today). */
    db: Db;
    dialect: DialectLayer;
    projects: ProjectRepository;
    /** The counters of the request limits and the sign-in throttle: Redis with REDIS_URL, else this process's memory. */
    limitCounters: LimitCounters;
    /** Set when farmers' sign-in accounts live in our users table (see repositories/context.ts). */
    farmerAccounts: FarmerAccounts | undefined;
  }
  interface FastifyRequest {
    /** Set by the authentication hook for /api/* (null only on public routes). */
    principal: Principal | null;
    /** Set for routes with a :projectId param, after authentication. */
    access: Access | null;
    projectSchema: ProjectSchema | null;
  }
  interface FastifyContextConfig {
    /** No authentication for this /api route (e.g. /api/Test). */
    public?: boolean;
    /** The route answers users who are neither editor/reader nor have a farmer record (roles). */
    allowNoFarmer?: boolean;
  }
}

export {};
