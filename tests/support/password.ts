// The password every account the fast suites make is given (registerUser, the cluster harness).
export const PASSWORD = "correct horse";
