// Typed bodies, params, queries and responses through the generics.
import express, { type Request, type RequestHandler, type Response } from 'switchyardjs'

interface CreateTodo {
  title: string
  due?: string
}
interface Todo extends CreateTodo {
  id: number
  done: boolean
}
interface ListQuery {
  done?: 'true' | 'false'
  limit?: string
}
type ErrorBody = { error: string }

const todos: Todo[] = []

const list: RequestHandler<{}, Todo[], unknown, ListQuery> = (req, res) => {
  const limit = req.query.limit ? Number(req.query.limit) : 20
  const done = req.query.done === undefined ? undefined : req.query.done === 'true'
  res.json(todos.filter((t) => done === undefined || t.done === done).slice(0, limit))
}

function create(req: Request<{}, Todo | ErrorBody, CreateTodo>, res: Response<Todo | ErrorBody>): void {
  if (typeof req.body?.title !== 'string') {
    res.status(422).json({ error: 'title is required' })
    return
  }
  const todo: Todo = { id: todos.length + 1, title: req.body.title, due: req.body.due, done: false }
  todos.push(todo)
  res.status(201).json(todo)
}

const app = express()
app.use(express.json())
app.get('/todos', list)
app.post('/todos', create)
app.patch('/todos/:id', (req: Request<{ id: string }, Todo | ErrorBody, Partial<Todo>>, res: Response<Todo | ErrorBody>) => {
  const todo = todos.find((t) => t.id === Number(req.params.id))
  if (!todo) return res.status(404).json({ error: 'not found' })
  Object.assign(todo, req.body)
  res.json(todo)
})
