/**
 * AUTH=none, for a local demo on one machine only: every request from this machine (loopback) is
 * the same fixed user; requests from anywhere else are refused, and readEnv() refuses the setting
 * in production, so it cannot open a real deployment to the network.
 */
import { unauthenticated } from '../domain-errors';
import type { Authenticate, Principal } from './principal';

const LOOPBACK = /^(?:127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

const NONE_PRINCIPAL: Principal = { subject: 'demo-none', email: 'kmet1@example.si', name: 'Janez Novak', via: 'none' };

export function createNoneAuthenticate(principal: Principal = NONE_PRINCIPAL): Authenticate {
  return async (request) => {
    if (!LOOPBACK.test(request.ip)) throw unauthenticated('AUTH=none answers requests from this machine only');
    return principal;
  };
}
