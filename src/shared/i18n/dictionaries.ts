/**
 * The dictionaries, one JSON file per area and language (src/shared/i18n/locales/<language>/<area>.json), so that
 * each area's words live apart. A new area adds its two files here.
 */
import esApp from "./locales/es/app.json";
import esNav from "./locales/es/nav.json";
import esWelcome from "./locales/es/welcome.json";
import esSettings from "./locales/es/settings.json";
import esLocale from "./locales/es/locale.json";
import esTheme from "./locales/es/theme.json";
import esErrors from "./locales/es/errors.json";
import esValidation from "./locales/es/validation.json";
import esAuth from "./locales/es/auth.json";
import esDashboard from "./locales/es/dashboard.json";
import esMail from "./locales/es/mail.json";
import esAccess from "./locales/es/access.json";
import esDocuments from "./locales/es/documents.json";
import esRealtime from "./locales/es/realtime.json";
import esServices from "./locales/es/services.json";
import esOrganisation from "./locales/es/organisation.json";
import esExport from "./locales/es/export.json";
import esDealerships from "./locales/es/dealerships.json";
import esManagement from "./locales/es/management.json";
import esPlaces from "./locales/es/places.json";
import esBusinesses from "./locales/es/businesses.json";
import esHeadquarters from "./locales/es/headquarters.json";
import esProperties from "./locales/es/properties.json";
import esImport from "./locales/es/import.json";
import esJobs from "./locales/es/jobs.json";
import esUi from "./locales/es/ui.json";
import esSales from "./locales/es/sales.json";
import esCash from "./locales/es/cash.json";
import esDiners from "./locales/es/diners.json";
import esDinners from "./locales/es/dinners.json";
import esPeriods from "./locales/es/periods.json";
import esReports from "./locales/es/reports.json";
import esFood from "./locales/es/food.json";
import esFoodCost from "./locales/es/food-cost.json";
import esMenu from "./locales/es/menu.json";
import esFoodImportDishes from "./locales/es/food-import-dishes.json";
import esFoodCatalogue from "./locales/es/food-catalogue.json";
import esMenuRequirements from "./locales/es/menu-requirements.json";
import esMenuBoard from "./locales/es/menu-board.json";
import esMenuSchedule from "./locales/es/menu-schedule.json";
import esDinerImportCli from "./locales/es/diner-import-cli.json";
import enApp from "./locales/en/app.json";
import enNav from "./locales/en/nav.json";
import enWelcome from "./locales/en/welcome.json";
import enSettings from "./locales/en/settings.json";
import enLocale from "./locales/en/locale.json";
import enTheme from "./locales/en/theme.json";
import enErrors from "./locales/en/errors.json";
import enValidation from "./locales/en/validation.json";
import enAuth from "./locales/en/auth.json";
import enDashboard from "./locales/en/dashboard.json";
import enMail from "./locales/en/mail.json";
import enAccess from "./locales/en/access.json";
import enDocuments from "./locales/en/documents.json";
import enRealtime from "./locales/en/realtime.json";
import enServices from "./locales/en/services.json";
import enOrganisation from "./locales/en/organisation.json";
import enExport from "./locales/en/export.json";
import enDealerships from "./locales/en/dealerships.json";
import enManagement from "./locales/en/management.json";
import enPlaces from "./locales/en/places.json";
import enBusinesses from "./locales/en/businesses.json";
import enHeadquarters from "./locales/en/headquarters.json";
import enProperties from "./locales/en/properties.json";
import enImport from "./locales/en/import.json";
import enJobs from "./locales/en/jobs.json";
import enUi from "./locales/en/ui.json";
import enSales from "./locales/en/sales.json";
import enCash from "./locales/en/cash.json";
import enDiners from "./locales/en/diners.json";
import enDinners from "./locales/en/dinners.json";
import enPeriods from "./locales/en/periods.json";
import enReports from "./locales/en/reports.json";
import enFood from "./locales/en/food.json";
import enFoodCost from "./locales/en/food-cost.json";
import enMenu from "./locales/en/menu.json";
import enFoodImportDishes from "./locales/en/food-import-dishes.json";
import enFoodCatalogue from "./locales/en/food-catalogue.json";
import enMenuRequirements from "./locales/en/menu-requirements.json";
import enMenuBoard from "./locales/en/menu-board.json";
import enMenuSchedule from "./locales/en/menu-schedule.json";
import enDinerImportCli from "./locales/en/diner-import-cli.json";

export const es = {
  app: esApp,
  nav: esNav,
  welcome: esWelcome,
  settings: esSettings,
  locale: esLocale,
  theme: esTheme,
  errors: esErrors,
  validation: esValidation,
  auth: esAuth,
  dashboard: esDashboard,
  mail: esMail,
  access: esAccess,
  documents: esDocuments,
  realtime: esRealtime,
  services: esServices,
  organisation: esOrganisation,
  export: esExport,
  dealerships: esDealerships,
  management: esManagement,
  places: esPlaces,
  businesses: esBusinesses,
  headquarters: esHeadquarters,
  properties: esProperties,
  import: esImport,
  jobs: esJobs,
  ui: esUi,
  sales: esSales,
  cash: esCash,
  diners: esDiners,
  dinners: esDinners,
  periods: esPeriods,
  reports: esReports,
  food: esFood,
  foodCost: esFoodCost,
  menu: esMenu,
  foodImportDishes: esFoodImportDishes,
  foodCatalogue: esFoodCatalogue,
  menuRequirements: esMenuRequirements,
  menuBoard: esMenuBoard,
  menuSchedule: esMenuSchedule,
  dinerImportCli: esDinerImportCli,
};

export const en = {
  app: enApp,
  nav: enNav,
  welcome: enWelcome,
  settings: enSettings,
  locale: enLocale,
  theme: enTheme,
  errors: enErrors,
  validation: enValidation,
  auth: enAuth,
  dashboard: enDashboard,
  mail: enMail,
  access: enAccess,
  documents: enDocuments,
  realtime: enRealtime,
  services: enServices,
  organisation: enOrganisation,
  export: enExport,
  dealerships: enDealerships,
  management: enManagement,
  places: enPlaces,
  businesses: enBusinesses,
  headquarters: enHeadquarters,
  properties: enProperties,
  import: enImport,
  jobs: enJobs,
  ui: enUi,
  sales: enSales,
  cash: enCash,
  diners: enDiners,
  dinners: enDinners,
  periods: enPeriods,
  reports: enReports,
  food: enFood,
  foodCost: enFoodCost,
  menu: enMenu,
  foodImportDishes: enFoodImportDishes,
  foodCatalogue: enFoodCatalogue,
  menuRequirements: enMenuRequirements,
  menuBoard: enMenuBoard,
  menuSchedule: enMenuSchedule,
  dinerImportCli: enDinerImportCli,
};
