// The calendar reads workspace and travel share (AgentDojo's `calendar_client.py`).
import { at, contains, day, nonEmpty, type Read, rows, text } from './environment-access.js';

const EVENTS = 'calendar.initial_events';

export const calendarReads: Readonly<Record<string, Read>> = {
  get_current_day: (env) => text(at(env, 'calendar.current_day')),
  search_calendar_events: (env, args) =>
    nonEmpty(
      rows(env, EVENTS).filter(
        (event) =>
          (contains(event.title, args.query) || contains(event.description, args.query)) &&
          (args.date === undefined || args.date === null || day(event.start_time) === text(args.date)),
      ),
      'events',
    ),
  get_day_calendar_events: (env, args) =>
    rows(env, EVENTS).filter((event) => day(event.start_time) === text(args.day)),
};
