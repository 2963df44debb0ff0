/**
 * The LAN discovery defaults (SPEC "LAN discovery"), apart from discovery.ts so that the CLI's
 * help can name them without loading the discovery code and the sync modules behind it.
 */

export const DISCOVERY_GROUP = '239.255.0.1';
export const DISCOVERY_PORT = 7947;
