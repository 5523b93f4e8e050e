/** Queries the SPARQL tab offers; each runs as of the chosen epoch. */
const PREFIXES = `PREFIX cl: <https://w3id.org/context-ledger/vocab#>
PREFIX prov: <http://www.w3.org/ns/prov#>
`;

export const SPARQL_EXAMPLES: ReadonlyArray<{ label: string; query: string }> = [
  {
    label: 'claims with valid support',
    query: `${PREFIXES}SELECT ?claim ?evidence WHERE {
  ?claim a cl:Claim ; cl:supportedBy ?evidence .
  FILTER NOT EXISTS { ?evidence prov:wasInvalidatedBy ?commit }
} ORDER BY ?claim ?evidence`,
  },
  {
    // Every closed record has cl:closedBy; PROV's wasInvalidatedBy is for entities only, so
    // superseded verifier outcomes and actions (activities) would be missing from it.
    label: 'superseded records',
    query: `${PREFIXES}SELECT ?record ?reason ?epoch ?by WHERE {
  ?record cl:closedBy ?commit ; cl:invalidationReason ?reason ; cl:validTo ?epoch .
  OPTIONAL { ?record cl:supersededBy ?by }
} ORDER BY ?epoch ?record`,
  },
  {
    label: 'what each activity generated',
    query: `${PREFIXES}SELECT ?activity ?entity WHERE {
  ?entity prov:wasGeneratedBy ?activity .
} ORDER BY ?activity ?entity`,
  },
  {
    label: 'failed verifiers and what they used',
    query: `${PREFIXES}SELECT ?run ?verifier ?used WHERE {
  ?run a cl:VerifierOutcome ; cl:status "failed" ; cl:verifier ?verifier .
  OPTIONAL { ?run prov:used ?used }
} ORDER BY ?run`,
  },
];
