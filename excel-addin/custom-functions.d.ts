/**
 * The part of Excel's CustomFunctions runtime global the add-in uses
 * (the full typings come with @types/custom-functions-runtime, not a
 * dependency here).
 */
declare namespace CustomFunctions {
  const ErrorCode: {
    invalidValue: "#VALUE!";
    notAvailable: "#N/A";
    divisionByZero: "#DIV/0!";
    invalidNumber: "#NUM!";
    nullReference: "#NULL!";
    invalidName: "#NAME?";
    invalidReference: "#REF!";
  };
  type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];
  class Error {
    constructor(errorCode: ErrorCodeValue, errorMessage?: string);
    code: ErrorCodeValue;
    message?: string;
  }
  function associate(id: string, fn: (...args: never[]) => unknown): void;
}
