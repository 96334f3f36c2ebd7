// The services' own gate on names, whoever calls them (routes have checked already through the
// schemas in users/model.ts; scripts and tests may not have): the normalised name, or a 400.
import { validationError } from "../../http/errors.ts";
import { displayNameProblem, normaliseName, normaliseUsername, usernameProblem } from "./rules.ts";
import { confusableFold } from "./skeleton.ts";

export function acceptUsername(raw: string): string {
  const username = normaliseUsername(raw);
  const problem = usernameProblem(username, confusableFold);
  if (problem) throw validationError({ username: problem });
  return username;
}

export function acceptDisplayName(raw: string): string {
  const name = normaliseName(raw);
  const problem = displayNameProblem(name, confusableFold);
  if (problem) throw validationError({ name: problem });
  return name;
}
