// The generated fetch client names the DOM's BodyInit; Node's fetch has the same type (undici's), and the
// repository compiles without the DOM library.
declare global {
  type BodyInit = import('undici-types').BodyInit;
}

export {};
