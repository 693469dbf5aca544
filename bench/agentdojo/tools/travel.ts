// Travel's reads (AgentDojo's `travel_booking_client.py`, its calendar and user reads): each answers
// for the names asked, from the hotel, restaurant and car-rental lists, reviews included.
import { calendarReads } from './calendar.js';
import { type Args, at, type Read, type Row, rows, strings, text } from './environment-access.js';

const HOTELS = 'hotels.hotel_list';
const RESTAURANTS = 'restaurants.restaurant_list';
const CARS = 'car_rental.company_list';

/** `{ name: what(row) }` for each row of `list` named in `args[field]`. */
function byName(list: string, field: string, what: (row: Row) => unknown): Read {
  return (env, args: Args) => {
    const names = strings(args[field]);
    return Object.fromEntries(
      rows(env, list)
        .filter((row) => names.includes(text(row.name)))
        .map((row) => [text(row.name), what(row)]),
    );
  };
}

function inCity(list: string, label: string): Read {
  return (env, args) =>
    `${label} ${text(args.city)}:\n${rows(env, list)
      .filter((row) => row.city === args.city)
      .map((row) => text(row.name))
      .join('\n')}`;
}

const ratingAndReviews = (row: Row) =>
  `Rating: ${text(row.rating)}\nReviews: ${strings(row.reviews).join('\n')}`;

export const travelReads: Readonly<Record<string, Read>> = {
  get_user_information: (env) => {
    const user = at(env, 'user') as Row;
    const fields = ['first_name', 'last_name', 'ID_number', 'email', 'phone_number', 'address'];
    const more = ['passport_number', 'bank_account_number', 'credit_card_number'];
    return Object.fromEntries([...fields, ...more].map((field) => [field, text(user[field])]));
  },
  get_all_hotels_in_city: inCity(HOTELS, 'Hotels in'),
  get_hotels_prices: byName(
    HOTELS,
    'hotel_names',
    (row) => `Price range: ${text(row.price_min)} - ${text(row.price_max)}`,
  ),
  get_rating_reviews_for_hotels: byName(HOTELS, 'hotel_names', ratingAndReviews),
  get_hotels_address: (env, args) =>
    byName(HOTELS, 'names', (row) => row.address)(env, { names: [args.hotel_name] }),
  get_all_restaurants_in_city: inCity(RESTAURANTS, 'Restaurants in'),
  get_cuisine_type_for_restaurants: byName(RESTAURANTS, 'restaurant_names', (row) => row.cuisine_type),
  get_restaurants_address: byName(RESTAURANTS, 'restaurant_names', (row) => row.address),
  get_rating_reviews_for_restaurants: byName(RESTAURANTS, 'restaurant_names', ratingAndReviews),
  get_dietary_restrictions_for_all_restaurants: byName(
    RESTAURANTS,
    'restaurant_names',
    (row) => row.dietary_restrictions,
  ),
  get_contact_information_for_restaurants: byName(
    RESTAURANTS,
    'restaurant_names',
    (row) => row.contact_information,
  ),
  get_price_for_restaurants: byName(RESTAURANTS, 'restaurant_names', (row) => row.price_per_person),
  check_restaurant_opening_hours: byName(RESTAURANTS, 'restaurant_names', (row) => row.operating_hours),
  get_all_car_rental_companies_in_city: inCity(CARS, 'Car rental companies in'),
  get_car_types_available: byName(CARS, 'company_name', (row) => strings(row.car_types_available)),
  get_rating_reviews_for_car_rental: byName(CARS, 'company_name', ratingAndReviews),
  get_car_fuel_options: byName(CARS, 'company_name', (row) => strings(row.fuel_options)),
  get_car_rental_address: byName(CARS, 'company_name', (row) => row.address),
  get_car_price_per_day: byName(CARS, 'company_name', (row) => row.price_per_day),
  get_flight_information: (env, args) =>
    rows(env, 'flights.flight_list')
      .filter(
        (flight) =>
          flight.departure_city === args.departure_city && flight.arrival_city === args.arrival_city,
      )
      .map(
        (flight) =>
          `Airline: ${text(flight.airline)}, Flight Number: ${text(flight.flight_number)}, ` +
          `Departure Time: ${text(flight.departure_time)}, Arrival Time: ${text(flight.arrival_time)}, ` +
          `Price: ${text(flight.price)}, Contact Information: ${text(flight.contact_information)}`,
      )
      .join('\n'),
  search_calendar_events: calendarReads.search_calendar_events!,
  get_day_calendar_events: calendarReads.get_day_calendar_events!,
};
