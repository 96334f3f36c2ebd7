// A keyboard and screen reader friendly tag input (issue 24), after the ARIA combobox pattern:
// type, then Enter or comma adds the tag (or the highlighted suggestion); Backspace in the empty
// field removes the last tag; Up and Down move through suggestions, Escape closes them; every tag
// has a remove button named "Remove <tag>"; additions and removals are announced.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { isInterest, MAX_INTERESTS, normaliseInterest } from "../../src/users/values.ts";
import InterestStyles from "./InterestStyles.tsx";
import { INTEREST_TEXTS as T } from "./texts.ts";

export interface TagInputProps {
  value: readonly string[];
  onChange: (tags: string[]) => void;
  /** Tags to suggest for a typed prefix (GET /api/interests/suggestions); none without it. */
  suggest?: (prefix: string) => Promise<readonly string[]>;
  label?: string;
  hint?: string;
  max?: number;
  disabled?: boolean;
}

/** Waits for a pause in typing before asking for suggestions. */
export const SUGGEST_DELAY_MS = 200;

export default function TagInput({ value, onChange, suggest, label = T.interests, hint = T.interestsHint, max = MAX_INTERESTS, disabled = false }: TagInputProps) {
  const id = useId();
  const [text, setText] = useState("");
  const [options, setOptions] = useState<readonly string[]>([]);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [said, setSaid] = useState("");
  const field = useRef<HTMLInputElement | null>(null);

  const prefix = normaliseInterest(text);
  useEffect(() => {
    if (!suggest || !prefix) {
      setOptions([]);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      suggest(prefix).then(
        (found) => {
          if (!live) return;
          setOptions(found.filter((tag) => !value.includes(tag)));
          setActive(-1);
        },
        // Suggestions are a help: without them the field still takes what is typed.
        () => live && setOptions([]),
      );
    }, SUGGEST_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [prefix, suggest, value]);

  /** Adds the tags in `raw` (comma-separated); answers whether all were taken. */
  const add = (raw: string): boolean => {
    let next = [...value];
    for (const part of raw.split(",")) {
      const tag = normaliseInterest(part);
      if (!tag || next.includes(tag)) continue;
      if (!isInterest(tag)) return setProblem(T.rule), false;
      if (next.length >= max) return setProblem(T.tooMany(max)), false;
      next = [...next, tag];
      setSaid(T.added(tag));
    }
    if (next.length !== value.length) onChange(next);
    setProblem(null);
    setText("");
    setOpen(false);
    setActive(-1);
    return true;
  };

  const remove = (tag: string) => {
    onChange(value.filter((t) => t !== tag));
    setSaid(T.removed(tag));
    setProblem(null);
    field.current?.focus();
  };

  const showing = open && options.length > 0;
  const listId = `${id}-options`;
  const hintId = `${id}-hint`;
  const problemId = `${id}-problem`;

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") {
      // An empty field lets Enter submit the form around it.
      if (!text.trim() && !(showing && active >= 0)) return;
      e.preventDefault();
      add(showing && active >= 0 ? options[active]! : text);
    } else if (e.key === ",") {
      e.preventDefault();
      add(text);
    } else if (e.key === "Backspace" && text === "" && value.length > 0) {
      e.preventDefault();
      remove(value[value.length - 1]!);
    } else if (e.key === "ArrowDown" && options.length > 0) {
      e.preventDefault();
      setOpen(true);
      setActive((i) => Math.min(i + 1, options.length - 1));
    } else if (e.key === "ArrowUp" && showing) {
      e.preventDefault();
      setActive((i) => Math.max(i - 1, -1));
    } else if (e.key === "Escape" && showing) {
      // Closes the list only, not a dialog around it.
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <div className="tag-input">
      <InterestStyles />
      <label className="tag-input-label" htmlFor={`${id}-field`}>
        {label}
      </label>
      <div className="tag-box">
        {value.length > 0 && (
          <ul className="tag-list" aria-label={label}>
            {value.map((tag) => (
              <li className="tag" key={tag}>
                <span>{tag}</span>
                <button type="button" className="tag-remove" aria-label={T.remove(tag)} onClick={() => remove(tag)} disabled={disabled}>
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          ref={field}
          id={`${id}-field`}
          className="tag-field"
          type="text"
          role="combobox"
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={showing}
          aria-controls={listId}
          aria-activedescendant={showing && active >= 0 ? `${listId}-${active}` : undefined}
          aria-describedby={problem ? `${hintId} ${problemId}` : hintId}
          aria-invalid={problem ? true : undefined}
          maxLength={200}
          value={text}
          disabled={disabled}
          onChange={(e) => {
            const typed = e.target.value;
            // A pasted "chess, hiking, tea" adds all but the part still being typed.
            const cut = typed.lastIndexOf(",");
            if (cut >= 0 && add(typed.slice(0, cut))) setText(typed.slice(cut + 1));
            else setText(typed);
            setOpen(true);
            if (problem) setProblem(null);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setOpen(false)}
        />
      </div>
      <ul id={listId} className="tag-options" role="listbox" aria-label={T.suggestions} hidden={!showing}>
        {options.map((tag, i) => (
          <li
            key={tag}
            id={`${listId}-${i}`}
            className="tag-option"
            role="option"
            aria-selected={i === active}
            // Before the field's blur closes the list.
            onMouseDown={(e) => {
              e.preventDefault();
              add(tag);
            }}
          >
            {tag}
          </li>
        ))}
      </ul>
      <p id={hintId} className="tag-hint">
        {hint}
      </p>
      {problem && (
        <p id={problemId} className="tag-problem" role="alert">
          {problem}
        </p>
      )}
      <span className="visually-hidden" aria-live="polite">
        {said}
      </span>
    </div>
  );
}
