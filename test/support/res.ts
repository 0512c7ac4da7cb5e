// Helpers for the res.* tests: an app with one route and an error handler
// that answers `<status> <name>: <message>` so tests can see what failed.
import fw from '../../src/index'

/** An app answering every method on `path` with `handler`, errors as text. */
export function appWith(handler: (req: any, res: any, next: any) => unknown, path = '/', setup?: (app: any) => void): any {
  const app: any = fw()
  setup?.(app)
  app.all(path, handler)
  app.use((err: any, req: any, res: any, next: any) => {
    res.status(typeof err.status === 'number' ? err.status : 500)
    res.set('X-Error-Code', String(err.code ?? ''))
    res.type('txt').send(`${err.name}: ${err.message}`)
  })
  return app
}
