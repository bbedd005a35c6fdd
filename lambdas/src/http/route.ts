import { timingSafeEqual } from 'node:crypto';
import { ForbiddenError, assertAdmin, assertUsableUid, type Identity } from '@receipts/core';
import { ORIGIN_VERIFY_HEADER, type RouteName } from '@receipts/core/contract/routes';
import type { RouteAnswers } from '@receipts/core/contract/answers';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { bindInvocation, getServices, type Services } from '../composition';
import { errorResponse } from './errors';
import { bearerToken } from './request';
import { bufferedResult, json, type HttpResult } from './responses';

/** What a route's `run` gets. */
export interface RouteContext {
  services: Services;
  /** The verified caller; for `auth: 'none'` routes an anonymous identity with an empty uid. */
  identity: Identity;
  event: APIGatewayProxyEventV2;
}

export interface RouteSpec<N extends RouteName, I, O> {
  name: N;
  /** 'user': a verified ID token; 'admin': and on the admin list; 'none': anyone. */
  auth: 'user' | 'admin' | 'none';
  /** Parses and validates the request (throws ValidationError / PayloadTooLargeError). */
  input: (event: APIGatewayProxyEventV2) => I;
  run: (context: RouteContext, input: I) => Promise<O> | O;
  /** Turns the result into the answer; default: JSON with `status`, which must be the route's `RouteAnswers` type. */
  respond?: (output: O, event: APIGatewayProxyEventV2) => HttpResult;
  status?: number;
}

/**
 * An API Gateway (payload v2) handler: on Lambda called with the event and its context, taking the
 * function's services from getServices; `serve` answers the same request with services the caller
 * built (the local stack, tests).
 */
export interface RouteHandler {
  (event: APIGatewayProxyEventV2, context?: Context): Promise<HttpResult>;
  serve(services: Services, event: APIGatewayProxyEventV2): Promise<HttpResult>;
  /** The answer with the services `services` gives (what both of the above call). */
  answer: Answer;
}

/** A handler's answer, with its services from `services` (a failure there is answered like any other). */
export type Answer = (
  services: () => Promise<Services>,
  event: APIGatewayProxyEventV2,
  context?: Context,
) => Promise<HttpResult>;

/** The Lambda handler and its `serve` from one way of answering. */
export function routeHandler(answer: Answer): RouteHandler {
  return Object.assign(
    (event: APIGatewayProxyEventV2, context?: Context) => answer(getServices, event, context),
    {
      serve: (services: Services, event: APIGatewayProxyEventV2) => answer(async () => services, event),
      answer,
    },
  );
}

const ANONYMOUS: Identity = { uid: '', email: null, name: null };

/**
 * Makes an API Gateway (HTTP API, payload v2) handler of a route: authenticate, validate, run the
 * use case, and map any error to its status in one place. The same function serves the local server.
 */
export function defineRoute<N extends RouteName, I, O>(
  spec: RouteSpec<N, I, O> & Required<Pick<RouteSpec<N, I, O>, 'respond'>>,
): RouteHandler;
/**
 * A route whose result is sent as JSON must produce what the route table says it answers
 * (`RouteAnswers`, which the web client relies on); one that makes its answer otherwise (a JSON
 * text, a file) gives `respond`.
 */
export function defineRoute<N extends RouteName, I>(spec: RouteSpec<N, I, RouteAnswers[N]>): RouteHandler;
export function defineRoute<N extends RouteName, I, O>(spec: RouteSpec<N, I, O>): RouteHandler {
  return routeHandler(async (servicesOf, event, context) => {
    const started = Date.now();
    const requestId = event.requestContext?.requestId;
    let services: Services | undefined;
    try {
      services = await servicesOf();
      bindInvocation(services, context);
      assertThroughSite(event, services.originSecret);
      let identity = ANONYMOUS;
      if (spec.auth !== 'none') {
        // Authentication comes first: an anonymous caller learns nothing about the input rules.
        identity = await services.identity.verify(bearerToken(event));
        assertUsableUid(identity);
        if (spec.auth === 'admin') assertAdmin(identity, services.admin);
      }
      const input = spec.input(event);
      const output = await spec.run({ services, identity, event }, input);
      const result = spec.respond ? spec.respond(output, event) : json(spec.status ?? 200, output, event);
      services.logger.debug('request', {
        route: spec.name,
        status: result.statusCode,
        ms: Date.now() - started,
        userId: identity.uid || undefined,
        requestId,
      });
      return result;
    } catch (error) {
      const logger = services?.logger ?? fallbackLogger;
      return errorResponse(error, logger, { route: spec.name, requestId, event });
    }
  });
}

/**
 * The Lambda form of a route that streams its answer: API Gateway's HTTP API takes a Lambda's answer
 * in one piece (at most 6 MB), so the stream is joined, gzipped when the client accepts it, and an
 * answer still over the limit is a 413 with `tooLargeMessage` (see bufferedResult).
 */
export function bufferedRoute(route: RouteHandler, tooLargeMessage: string): RouteHandler {
  return routeHandler(async (services, event, context) =>
    bufferedResult(await route.answer(services, event, context), { event, tooLargeMessage }),
  );
}

/**
 * Deployed, CloudFront adds the origin secret to every /api request; a request straight to the
 * execute-api endpoint lacks it and is refused, so WAF and the site's limits cannot be bypassed.
 */
function assertThroughSite(event: APIGatewayProxyEventV2, secret: string | null): void {
  if (secret === null) return;
  const given = Buffer.from(event.headers?.[ORIGIN_VERIFY_HEADER] ?? '', 'utf8');
  const expected = Buffer.from(secret, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ForbiddenError("This API answers only through the site's own address. Use the site's URL.", {
      code: 'NotThroughSite',
    });
  }
}

// Used only when the services could not even be created (e.g. a configuration error).
const fallbackLogger = {
  debug() {},
  info() {},
  warn: (message: string, fields?: Record<string, unknown>) =>
    console.warn(JSON.stringify({ message, ...fields })),
  error: (message: string, fields?: Record<string, unknown>) =>
    console.error(JSON.stringify({ level: 'error', message, ...fields })),
};
