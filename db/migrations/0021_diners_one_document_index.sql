-- A diner found by a document number alone (a scanner's digits at the point of sale) is looked up in the unique
-- index by type and number, once per type: the index by number alone only repeated it, and every diner written
-- (an import writes a hundred thousand) paid for it.
DROP INDEX `diners_document_number_index`;
