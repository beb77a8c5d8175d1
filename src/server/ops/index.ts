/**
 * The operator's parts of the app: /metrics and the request log. Registered before any route, so
 * their hooks see every route (the role binding is added per route as routes are declared).
 */
import type { FastifyInstance } from 'fastify';
import { readMetricsEnv, type MetricsSettings } from '../env';
import { registerMetrics } from './metrics';
import { registerRequestLog } from './request-log';

/** `metrics`: who may read /metrics (default: METRICS_TOKEN and METRICS_ALLOW from the environment). */
export function registerOps(app: FastifyInstance, metrics?: MetricsSettings): void {
  registerMetrics(app, metrics ?? readMetricsEnv());
  registerRequestLog(app);
}
