// Global declarations that user code augments, exactly as with Express:
// `declare global { namespace Express { interface Request { user?: User } } }`
// adds `user` to switchyard's `Request` (passport, multer and many apps do this).

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    /** Augment to add properties to every `req`. */
    interface Request {}
    /** Augment to add properties to every `res`. */
    interface Response {}
    /** Augment to type `res.locals` and `app.locals` everywhere. */
    interface Locals {}
    /** Augment to add properties to every application. */
    interface Application {}
  }
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Switchyard {
    /**
     * Type-level settings. Augment with `strictBody: true` to make the default
     * `req.body` type `unknown` instead of `any`:
     * `declare global { namespace Switchyard { interface TypeOptions { strictBody: true } } }`
     */
    interface TypeOptions {}
  }
}

/** The default type of `req.body`: `any`, or `unknown` when `Switchyard.TypeOptions` sets `strictBody: true`. */
export type DefaultBody = Switchyard.TypeOptions extends { strictBody: true } ? unknown : any
