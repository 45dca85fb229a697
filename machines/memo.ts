/** The one way a cache here remembers its last answer: memoize-one, which compares the arguments by identity. */
import memoize from "memoize-one";

// Its types declare an ES default export; Node hands an ES module the package's CommonJS `module.exports`.
export const memoizeOne = memoize as unknown as typeof memoize.default;
