// Public types. PLACEHOLDER written by the lead: the types work (issue 7) replaces it.
import type { IncomingMessage, ServerResponse } from 'node:http'

export type NextFunction = (err?: any) => void
export type Request = IncomingMessage & Record<string, any>
export type Response = ServerResponse & Record<string, any>
export type RequestHandler = (req: Request, res: Response, next: NextFunction) => unknown
export type ErrorRequestHandler = (err: any, req: Request, res: Response, next: NextFunction) => unknown
export type Application = RequestHandler & Record<string, any>
export type Router = RequestHandler & Record<string, any>
export type Express = Application

/** The `fw` function and what hangs off it. */
export interface Switchyard {
  (): Application
  Router: (options?: { caseSensitive?: boolean; mergeParams?: boolean; strict?: boolean }) => Router
  Route: new (path: unknown) => any
  json: (options?: object) => RequestHandler
  raw: (options?: object) => RequestHandler
  text: (options?: object) => RequestHandler
  urlencoded: (options?: object) => RequestHandler
  static: (root: string, options?: object) => RequestHandler
  application: Record<string, any>
  request: Record<string, any>
  response: Record<string, any>
}
