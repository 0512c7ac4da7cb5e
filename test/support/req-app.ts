// Helpers for the req.* tests: an app whose only middleware answers with
// JSON `{ v }`, where `v` is what `read(req, res)` returned (or the error it threw).
import fw from '../../src/index'

/** Build an app with `settings` answering `{ v: read(req, res) }` as JSON. */
export function probe(read: (req: any, res: any) => unknown, settings: Record<string, unknown> = {}): any {
  const app = fw()
  for (const [k, v] of Object.entries(settings)) app.set(k, v)
  app.use((req: any, res: any) => {
    let v: unknown
    try {
      v = read(req, res)
    } catch (err) {
      v = { error: `${(err as Error).name}: ${(err as Error).message}` }
    }
    res.statusCode = 200
    res.setHeader('Content-Type', 'application/json')
    res.end(JSON.stringify({ v }))
  })
  return app
}
