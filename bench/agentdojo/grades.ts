// The one reviewed table: every tool of AgentDojo's four suites, its grade and why. The question is
// the library's own: can it be undone, and will someone outside see it at once? `destinations` names
// the input fields where a value goes out (so the person's card and the rules see where it came
// from); `egress` marks a read that sends a model-chosen value outside.
import type { SideEffect } from 'graded-tools';

export interface Grade {
  readonly sideEffect: SideEffect;
  readonly why: string;
  readonly destinations?: readonly string[];
  readonly egress?: true;
}

const read = (why: string): Grade => ({ sideEffect: 'read', why });
const write = (why: string, destinations?: readonly string[]): Grade =>
  destinations === undefined ? { sideEffect: 'write', why } : { sideEffect: 'write', why, destinations };
const send = (why: string, destinations?: readonly string[]): Grade =>
  destinations === undefined ? { sideEffect: 'send', why } : { sideEffect: 'send', why, destinations };

/** Keyed by AgentDojo's flat name; a name two suites share (`send_email`) means the same tool. */
export const GRADES: Readonly<Record<string, Grade>> = {
  // workspace: email
  send_email: send('an email leaves at once to whoever is addressed', ['recipients', 'cc', 'bcc']),
  delete_email: write('changes the mailbox only; no one outside sees it (gone for the user, though)'),
  get_unread_emails: read('lists the inbox (AgentDojo marks them read: local bookkeeping)'),
  get_sent_emails: read('lists the inbox'),
  get_received_emails: read('lists the inbox'),
  get_draft_emails: read('lists the inbox'),
  search_emails: read('searches the inbox'),
  search_contacts_by_name: read('searches the contact list'),
  search_contacts_by_email: read('searches the contact list'),
  // workspace and travel: calendar
  get_current_day: read("reads the calendar's date"),
  search_calendar_events: read('searches the calendar'),
  get_day_calendar_events: read("lists a day's events"),
  create_calendar_event: send('emails every participant the invitation at once', ['participants']),
  cancel_calendar_event: send("emails the event's participants that it is cancelled"),
  reschedule_calendar_event: send("emails the event's participants the new time"),
  add_calendar_event_participants: send('emails the new participants the invitation', ['participants']),
  // workspace: cloud drive
  append_to_file: write('changes a file in the drive; no one is told'),
  search_files_by_filename: read('searches the drive'),
  create_file: write('adds a file to the drive; no one is told'),
  delete_file: write('removes a file from the drive; no one outside is told'),
  get_file_by_id: read('reads one file'),
  list_files: read('lists the drive'),
  share_file: send('gives someone access to a file: they can read it at once', ['email']),
  search_files: read('searches the drive'),
  // travel
  get_user_information: read("reads the user's own profile"),
  get_all_hotels_in_city: read("lists the agency's hotels"),
  get_hotels_prices: read("reads the agency's prices"),
  get_rating_reviews_for_hotels: read('reads ratings and reviews'),
  get_hotels_address: read('reads an address'),
  get_all_restaurants_in_city: read("lists the agency's restaurants"),
  get_cuisine_type_for_restaurants: read('reads restaurant details'),
  get_restaurants_address: read('reads restaurant details'),
  get_rating_reviews_for_restaurants: read('reads ratings and reviews'),
  get_dietary_restrictions_for_all_restaurants: read('reads restaurant details'),
  get_contact_information_for_restaurants: read('reads restaurant details'),
  get_price_for_restaurants: read('reads restaurant details'),
  check_restaurant_opening_hours: read('reads restaurant details'),
  get_all_car_rental_companies_in_city: read("lists the agency's car rentals"),
  get_car_types_available: read('reads car-rental details'),
  get_rating_reviews_for_car_rental: read('reads ratings and reviews'),
  get_car_fuel_options: read('reads car-rental details'),
  get_car_rental_address: read('reads car-rental details'),
  get_car_price_per_day: read('reads car-rental details'),
  reserve_hotel: send('books a room: the hotel sees it at once and the user is committed', ['hotel']),
  reserve_car_rental: send('books a car: the company sees it at once', ['company']),
  reserve_restaurant: send('books a table: the restaurant sees it at once', ['restaurant']),
  get_flight_information: read('reads flight times and prices'),
  // banking
  get_iban: read("reads the user's own IBAN"),
  send_money: send('money leaves the account at once and cannot be called back', ['recipient']),
  schedule_transaction: send('sets up a payment that leaves without anyone asking again', ['recipient']),
  update_scheduled_transaction: send('changes where or how much a standing order pays', ['recipient']),
  get_balance: read('reads the balance'),
  get_most_recent_transactions: read('reads the history'),
  get_scheduled_transactions: read('reads the standing orders'),
  read_file: read('reads a file the user has'),
  get_user_info: read("reads the user's own profile"),
  update_password: write(
    'changes the account locally; no one outside sees it (but it can lock the user out)',
  ),
  update_user_info: write("changes the user's own profile locally"),
  // slack
  get_channels: read('lists channels'),
  add_user_to_channel: write('a change inside the workspace: that member can now read the channel', ['user']),
  read_channel_messages: read('reads a channel'),
  read_inbox: read("reads a member's direct messages"),
  send_direct_message: send('the member reads it at once', ['recipient']),
  send_channel_message: send("every member of the channel reads it at once (External ones are outsiders')", [
    'channel',
  ]),
  get_users_in_channel: read("lists a channel's members"),
  invite_user_to_slack: send('an invitation email goes to that address at once', ['user_email']),
  remove_user_from_slack: write('a change inside the workspace; no one outside is told'),
  get_webpage: {
    sideEffect: 'read',
    why: "fetches a page — and the request itself tells the page's owner whatever the model put in the URL",
    destinations: ['url'],
    egress: true,
  },
  post_webpage: send('publishes content at a URL: anyone can read it at once', ['url']),
};
