/**
 * Checks each JSON-RPC message from the MCP client before the SDK's protocol engine sees
 * it, so that SPEC's error rules hold however broken the input: text that is not JSON
 * gets -32700, a value that is not a JSON-RPC 2.0 message -32600, a request with params
 * of the wrong shape -32602. It also fills in an `initialize` whose params are empty or
 * partial (SPEC: "params may be empty") with the defaults of protocol 2024-11-05, which
 * the SDK then answers like any other initialize. Notifications never get a reply.
 */

import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

/** The protocol version assumed when a client's initialize does not name one. */
export const DEFAULT_PROTOCOL_VERSION = '2024-11-05';

type RequestId = string | number;

export interface ErrorReply {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string };
}

export type GateDecision =
  | { kind: 'forward'; message: JSONRPCMessage; requestId?: RequestId }
  | { kind: 'reply'; reply: ErrorReply }
  | { kind: 'drop'; reason: string };

type Obj = Record<string, unknown>;

function isObject(x: unknown): x is Obj {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isRequestId(x: unknown): x is RequestId {
  return typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x));
}

function errorReply(id: RequestId | null, code: number, message: string): ErrorReply {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** Decides what happens to one line of input text (already valid UTF-8 or not). */
export function gateLine(text: string | undefined): GateDecision {
  if (text === undefined) return { kind: 'reply', reply: errorReply(null, PARSE_ERROR, 'Parse error: the message is not valid UTF-8') };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return { kind: 'reply', reply: errorReply(null, PARSE_ERROR, `Parse error: the message is not valid JSON (${detail})`) };
  }
  return gateValue(value);
}

/** Decides what happens to one parsed JSON value. */
export function gateValue(value: unknown): GateDecision {
  if (Array.isArray(value)) {
    return { kind: 'reply', reply: errorReply(null, INVALID_REQUEST, 'Invalid Request: batches are not supported; send one message per line') };
  }
  if (!isObject(value)) {
    return { kind: 'reply', reply: errorReply(null, INVALID_REQUEST, 'Invalid Request: a message must be a JSON object') };
  }
  const hasId = 'id' in value;
  const id = isRequestId(value.id) ? value.id : null;
  const isNotification = !hasId && typeof value.method === 'string';
  const invalid = (code: number, message: string): GateDecision =>
    isNotification ? { kind: 'drop', reason: message } : { kind: 'reply', reply: errorReply(id, code, message) };

  if (value.jsonrpc !== '2.0') return invalid(INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"');
  if (hasId && !isRequestId(value.id)) return invalid(INVALID_REQUEST, 'Invalid Request: "id" must be a string or a number');
  if (typeof value.method !== 'string') {
    // A response from the client (to a request of ours) has an id and result/error, no method.
    if (hasId && ('result' in value || 'error' in value)) return checked(value, undefined);
    return invalid(INVALID_REQUEST, 'Invalid Request: "method" must be a string');
  }
  if ('params' in value && value.params !== undefined && !isObject(value.params)) {
    return invalid(INVALID_PARAMS, 'Invalid params: "params" must be an object');
  }
  const params: Obj = isObject(value.params) ? value.params : {};
  const problem = paramsProblem(value.method, params);
  if (problem !== undefined) return invalid(INVALID_PARAMS, `Invalid params: ${problem}`);
  const message = value.method === 'initialize' ? { ...value, params: completeInitialize(params) } : value;
  return checked(message, hasId ? id ?? undefined : undefined);
}

/** What is wrong with the params of the methods whose shape we know, or undefined. */
function paramsProblem(method: string, params: Obj): string | undefined {
  switch (method) {
    case 'initialize':
      if (params.protocolVersion !== undefined && typeof params.protocolVersion !== 'string') return '"protocolVersion" must be a string';
      if (params.capabilities !== undefined && !isObject(params.capabilities)) return '"capabilities" must be an object';
      if (params.clientInfo !== undefined && !(isObject(params.clientInfo) && typeof params.clientInfo.name === 'string')) {
        return '"clientInfo" must be an object with a string "name"';
      }
      return undefined;
    case 'tools/call':
      if (typeof params.name !== 'string') return 'tools/call needs "name" (a string): the tool to call';
      if (params.arguments !== undefined && !isObject(params.arguments)) return '"arguments" must be an object';
      return undefined;
    case 'tools/list':
      if (params.cursor !== undefined && typeof params.cursor !== 'string') return '"cursor" must be a string';
      return undefined;
    default:
      return undefined;
  }
}

function completeInitialize(params: Obj): Obj {
  const clientInfo = isObject(params.clientInfo) ? params.clientInfo : {};
  return {
    ...params,
    protocolVersion: typeof params.protocolVersion === 'string' ? params.protocolVersion : DEFAULT_PROTOCOL_VERSION,
    capabilities: isObject(params.capabilities) ? params.capabilities : {},
    clientInfo: { ...clientInfo, name: typeof clientInfo.name === 'string' ? clientInfo.name : 'unknown', version: typeof clientInfo.version === 'string' ? clientInfo.version : '0' },
  };
}

/** Final check against the SDK's own message schema. */
function checked(value: Obj, requestId: RequestId | undefined): GateDecision {
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) return { kind: 'forward', message: parsed.data, requestId };
  const id = isRequestId(value.id) ? value.id : null;
  if (!('id' in value) && typeof value.method === 'string') return { kind: 'drop', reason: parsed.error.message };
  return { kind: 'reply', reply: errorReply(id, INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message') };
}
