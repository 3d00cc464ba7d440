/** Every kind of background job Mesa runs, by the name recorded on the job. */
import { dinersImportJob } from "./diners-import";
import { dishesImportJob } from "./dishes-import";
import { menuRequirementsJob } from "./menu-requirements";
import { placesImportJob } from "./places-import";
import { salesReportJob } from "./sales-report";
import type { JobHandler } from "./runner";

export const JOB_HANDLERS: JobHandler[] = [
  placesImportJob,
  dinersImportJob,
  salesReportJob,
  menuRequirementsJob,
  dishesImportJob,
];
