// Request<P, ResBody, ReqBody, Query, Locals>, typed handlers and typed responses.
import express, { type Request, type Response, type RequestHandler, type NextFunction } from 'switchyardjs'

interface Todo { id: number; title: string; done: boolean }
interface NewTodo { title: string }
interface ListQuery { page?: string; done?: 'true' | 'false' }
interface AuthLocals { userId: string }
interface ApiError { error: string }

const todos: Todo[] = []
const app = express()

const create: RequestHandler<{}, Todo | ApiError, NewTodo> = (req, res) => {
  if (!req.body.title) return res.status(400).json({ error: 'title required' })
  const todo: Todo = { id: todos.length + 1, title: req.body.title, done: false }
  todos.push(todo)
  res.status(201).json(todo)
}

function list(req: Request<{}, Todo[], unknown, ListQuery>, res: Response<Todo[]>) {
  const page = Number(req.query.page ?? '1')
  const filtered = req.query.done === undefined ? todos : todos.filter((t) => String(t.done) === req.query.done)
  res.json(filtered.slice((page - 1) * 10, page * 10))
}

const show: RequestHandler<{ id: string }, Todo | ApiError, never, {}, AuthLocals> = (req, res) => {
  const todo = todos.find((t) => t.id === Number(req.params.id))
  if (!todo) return res.status(404).json({ error: `not found for ${res.locals.userId}` })
  res.json(todo)
}

function auth(req: Request, res: Response<unknown, AuthLocals>, next: NextFunction) {
  const user = req.header('x-user')
  if (!user) return res.sendStatus(401)
  res.locals.userId = user
  next()
}

app.post('/todos', express.json(), create)
app.get('/todos', list)
app.get('/todos/:id', auth, show)
app.patch<{ id: string }, Todo, Partial<NewTodo>>('/todos/:id', (req, res) => {
  const todo = todos[Number(req.params.id) - 1]!
  if (req.body.title !== undefined) todo.title = req.body.title
  res.json(todo)
})
