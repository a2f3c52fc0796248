/**
 * Where a reader is in a number: a state of the grammar `-?\d+(\.\d+)?([eE][+-]?\d+)?` (the
 * longest start of a number that is read as a value; JSON's own rule, no leading zero, is checked
 * once the number has ended). `dead`: no more characters can extend the valid start.
 */
export type JsonNumberState =
  | "start"
  | "sign"
  | "int"
  | "dot"
  | "fraction"
  | "e"
  | "exponentSign"
  | "exponent"
  | "dead";

/** The state after `char`. */
export function nextJsonNumberState(state: JsonNumberState, char: string): JsonNumberState {
  const digit = char >= "0" && char <= "9";
  const exponent = char === "e" || char === "E";
  switch (state) {
    case "start":
      return char === "-" ? "sign" : digit ? "int" : "dead";
    case "sign":
      return digit ? "int" : "dead";
    case "int":
      return digit ? "int" : char === "." ? "dot" : exponent ? "e" : "dead";
    case "dot":
      return digit ? "fraction" : "dead";
    case "fraction":
      return digit ? "fraction" : exponent ? "e" : "dead";
    case "e":
      return digit ? "exponent" : char === "+" || char === "-" ? "exponentSign" : "dead";
    case "exponentSign":
    case "exponent":
      return digit ? "exponent" : "dead";
    default:
      return "dead";
  }
}
