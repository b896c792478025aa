"""Built-in tools of the ``software`` domain: methods of an application's own code.

Why: teams expose their SDKs and services to a model as tools (a connection pool, a
form validator, a job scheduler), and those methods take several required arguments,
most of them the program's own objects (``dbMonitor``, ``userSession``) or literals
(``'Orders'``). A model trained on one- and two-argument assistant tools learns to stop
after two arguments: in the names run, 15 of the 60 scored BFCL cases lost a required
argument the request stated. Every tool here needs three to five, named in camelCase, and
every request states them all. The tools are this project's own designs; none comes from
a benchmark. Template syntax: ``botpsy.train.catalog``.
"""

from __future__ import annotations

from collections.abc import Callable

from botpsy.train.catalog import (
    Param,
    ToolRecipe,
    array,
    boolean,
    enum,
    integer,
    recipe_factory,
    string,
)

_ANSWERS = ["Done.", "That went through.", "Finished without errors."]

_RESULT = {"status": "ok"}


def _method(
    name: str,
    description: str,
    params: dict[str, Param],
    required: list[str],
    requests: list[str],
) -> Callable[[], ToolRecipe]:
    """An SDK method's recipe factory: every method answers with a plain status."""
    return recipe_factory(
        "software", name, description, params, required, requests, _RESULT, _ANSWERS
    )


def _ref(what: str, source: str) -> Param:
    return string(f"The {what} object, by its variable name."), source


RECIPES = (
    _method(
        "ReportExporter.exportTable",
        "Export the rows of a database table to a file.",
        {
            "table": (string("Name of the table to export."), "table"),
            "outputPath": (string("Where to write the file."), "file_path"),
            "format": (enum("File format.", ["csv", "xlsx", "pdf"]), "enum"),
            "includeHeader": (boolean("Whether the first row names the columns."), None),
        },
        ["table", "outputPath", "format"],
        [
            "Help me export the {table} table to {outputPath} as {format}.",
            (
                "Export table {table} in {format} format to {outputPath}, with a header row."
                "{includeHeader=true}"
            ),
            (
                "Can you write the rows of {table} to {outputPath} as a {format} file, without"
                " the header?{includeHeader=false}"
            ),
        ],
    ),
    _method(
        "ConnectionPool.acquire",
        "Take a database connection from the pool, waiting at most the given time.",
        {
            "dataSource": _ref("DataSource", "data_source_ref"),
            "timeoutMs": (integer("How long to wait, in milliseconds.", minimum=1), "timeout_ms"),
            "readOnly": (boolean("Whether the connection only reads."), None),
        },
        ["dataSource", "timeoutMs", "readOnly"],
        [
            (
                "Help me get a read-only connection from {dataSource}, waiting up to {timeoutMs}"
                " ms.{readOnly=true}"
            ),
            (
                "Acquire a writable connection from the data source {dataSource} with a timeout of"
                " {timeoutMs} milliseconds.{readOnly=false}"
            ),
            (
                "I need a connection from {dataSource} for reading only; give up after {timeoutMs}"
                " ms.{readOnly=true}"
            ),
        ],
    ),
    _method(
        "SchemaMigrator.applyMigration",
        "Apply one schema migration in a database session, reporting progress to a monitor.",
        {
            "session": _ref("database session", "session_ref"),
            "migrationId": (string("Version id of the migration, e.g. V012."), "migration_id"),
            "monitor": _ref("progress monitor", "monitor_ref"),
            "dryRun": (boolean("Only print the statements, change nothing."), None),
        },
        ["session", "migrationId", "monitor"],
        [
            (
                "Help me apply migration {migrationId} in session {session} with the progress"
                " monitor {monitor}."
            ),
            (
                "Run a dry run of migration {migrationId} using session {session} and monitor"
                " {monitor}.{dryRun=true}"
            ),
            (
                "Apply schema migration {migrationId}; the session is {session} and progress goes"
                " to {monitor}."
            ),
        ],
    ),
    _method(
        "CacheManager.put",
        "Store a value in a cache under a key for a number of seconds.",
        {
            "cache": _ref("cache", "cache_ref"),
            "key": (string("The cache key."), "cache_key"),
            "value": _ref("value", "payload_ref"),
            "ttlSeconds": (integer("Seconds before the entry expires.", minimum=1), "seconds"),
        },
        ["cache", "key", "value", "ttlSeconds"],
        [
            "Help me store {value} in {cache} under the key {key} for {ttlSeconds} seconds.",
            "Put {value} into the cache {cache} with key {key} and a TTL of {ttlSeconds} s.",
            "Cache {value} as {key} in {cache}; it should expire after {ttlSeconds} seconds.",
        ],
    ),
    _method(
        "HttpClient.sendRequest",
        "Send an HTTP request and return the response.",
        {
            "url": (string("The full URL."), "endpoint"),
            "method": (enum("HTTP method.", ["GET", "POST", "PUT", "DELETE"]), "enum"),
            "timeoutMs": (integer("Timeout in milliseconds.", minimum=1), "timeout_ms"),
            "retries": (integer("How many times to retry on failure.", minimum=0), "retries"),
        },
        ["url", "method", "timeoutMs"],
        [
            "Send a {method} request to {url} with a {timeoutMs} ms timeout.",
            (
                "Help me call {url} using {method}, timing out after {timeoutMs} milliseconds and"
                " retrying {retries} times."
            ),
            "Make an HTTP {method} to {url}; timeout {timeoutMs} ms.",
        ],
    ),
    _method(
        "FormValidator.validateField",
        "Check one field of a web form against a rule.",
        {
            "formId": (string("The id of the form element."), "element_id"),
            "fieldName": (string("The field to check."), "field_name"),
            "rule": (enum("The rule.", ["required", "email", "numeric", "min_length"]), "enum"),
            "showError": (boolean("Whether to show the error next to the field."), None),
        },
        ["formId", "fieldName", "rule", "showError"],
        [
            (
                "Help me validate the {fieldName} field of form {formId} with the {rule} rule and"
                " show the error message.{showError=true}"
            ),
            (
                "Check field {fieldName} in {formId} against rule {rule}, without displaying an"
                " error.{showError=false}"
            ),
            (
                "In the form {formId}, validate {fieldName} using {rule} and show any error inline."
                "{showError=true}"
            ),
        ],
    ),
    _method(
        "DomRenderer.attachListener",
        "Attach an event handler to a page element.",
        {
            "element": _ref("DOM element", "element_ref"),
            "eventType": (
                enum("The event.", ["click", "submit", "keyup", "change", "scroll"]),
                "enum",
            ),
            "handler": _ref("handler function", "handler_ref"),
            "once": (boolean("Remove the handler after its first call."), None),
        },
        ["element", "eventType", "handler"],
        [
            "Help me attach {handler} to the {eventType} event of {element}.",
            (
                "Listen for {eventType} on {element} and call {handler}, only the first time."
                "{once=true}"
            ),
            "When {element} fires {eventType}, run the handler {handler}.",
        ],
    ),
    _method(
        "ChartBuilder.plotSeries",
        "Add a data series to a chart.",
        {
            "chart": _ref("chart", "chart_ref"),
            "values": (array("The data points.", {"type": "number"}), "numbers"),
            "label": (string("Legend label of the series."), "column"),
            "color": (enum("Line color.", ["red", "blue", "green", "black"]), "enum"),
        },
        ["chart", "values", "label"],
        [
            "Help me plot the values {values} on {chart} labelled {label}.",
            "Add a {color} series {values} named {label} to the chart {chart}.",
            "On {chart}, draw the series {values} with the label {label}.",
        ],
    ),
    _method(
        "FileStream.copyTo",
        "Copy a file to another path, reporting progress to a monitor.",
        {
            "source": (string("Path of the file to copy."), "file_path"),
            "destination": (string("Path of the copy."), "file_path"),
            "monitor": _ref("progress monitor", "monitor_ref"),
            "overwrite": (boolean("Replace the destination if it exists."), None),
        },
        ["source", "destination", "monitor", "overwrite"],
        [
            (
                "Help me copy {source} to {destination} with the progress monitor {monitor},"
                " overwriting any existing file.{overwrite=true}"
            ),
            "Copy {source} to {destination} using {monitor}; do not overwrite.{overwrite=false}",
            (
                "Copy the file {source} over to {destination}, replacing it if it exists, and"
                " report progress to {monitor}.{overwrite=true}"
            ),
        ],
    ),
    _method(
        "JobScheduler.scheduleJob",
        "Schedule a recurring job on a queue with a cron expression.",
        {
            "jobName": (string("Name of the job."), "job_name"),
            "cron": (string("Cron expression of the schedule."), "cron"),
            "queue": _ref("job queue", "queue_ref"),
            "maxRetries": (integer("Retries after a failed run.", minimum=0), "retries"),
        },
        ["jobName", "cron", "queue"],
        [
            "Help me schedule the job {jobName} with cron {cron} on the queue {queue}.",
            "Schedule {jobName} on {queue} at {cron}, retrying at most {maxRetries} times.",
            "Put job {jobName} on {queue} to run on the schedule {cron}.",
        ],
    ),
    _method(
        "StateStore.dispatchAction",
        "Dispatch an action with a payload to an application state store.",
        {
            "store": _ref("state store", "store_ref"),
            "actionType": (string("The action type constant."), "action_type"),
            "payload": _ref("payload", "payload_ref"),
        },
        ["store", "actionType", "payload"],
        [
            "Help me dispatch a {actionType} action to {store} with the payload {payload}.",
            "Send the action {actionType} carrying {payload} to the store {store}.",
            "Dispatch {actionType} on {store}, payload {payload}.",
        ],
    ),
    _method(
        "UserRepository.findByEmail",
        "Look up user records by email address.",
        {
            "repository": _ref("user repository", "repository_ref"),
            "email": (string("The email address."), "email"),
            "limit": (integer("Most records to return.", minimum=1), "count"),
            "includeDeleted": (boolean("Also return deleted users."), None),
        },
        ["repository", "email", "limit"],
        [
            "Help me find at most {limit} users with the email {email} in {repository}.",
            (
                "Search {repository} for users whose email is {email}, including deleted ones,"
                " up to {limit} results.{includeDeleted=true}"
            ),
            "Look up {email} in the repository {repository}; return no more than {limit}.",
        ],
    ),
    _method(
        "Paginator.fetchPage",
        "Fetch one page of results from a list endpoint, sorted by a field.",
        {
            "endpoint": (string("The list endpoint URL."), "endpoint"),
            "pageNumber": (integer("Page to fetch, from 1.", minimum=1), "page"),
            "pageSize": (integer("Items per page.", minimum=1), "page_size"),
            "sortBy": (string("Field to sort by."), "column"),
        },
        ["endpoint", "pageNumber", "pageSize", "sortBy"],
        [
            (
                "Help me fetch page {pageNumber} of {endpoint} with {pageSize} items per page,"
                " sorted by {sortBy}."
            ),
            "Get page {pageNumber} from {endpoint}, page size {pageSize}, sort by {sortBy}.",
            "From {endpoint}, load the {pageSize} items of page {pageNumber} ordered by {sortBy}.",
        ],
    ),
    _method(
        "ImageProcessor.resize",
        "Resize an image to the given width and height in pixels.",
        {
            "image": _ref("image", "image_ref"),
            "width": (integer("New width in pixels.", minimum=1), "pixels"),
            "height": (integer("New height in pixels.", minimum=1), "pixels"),
            "keepAspectRatio": (boolean("Fit inside the box without stretching."), None),
        },
        ["image", "width", "height"],
        [
            "Help me resize {image} to {width} by {height} pixels.",
            (
                "Scale the image {image} to {width}x{height}, keeping its aspect ratio."
                "{keepAspectRatio=true}"
            ),
            "Resize {image}: width {width}, height {height}.",
        ],
    ),
    _method(
        "Logger.writeEntry",
        "Write one entry to an application log.",
        {
            "logger": _ref("logger", "logger_ref"),
            "level": (enum("Severity.", ["debug", "info", "warn", "error"]), "enum"),
            "message": (string("The log message."), "message"),
        },
        ["logger", "level", "message"],
        [
            "Help me log '{message}' at {level} level with {logger}.",
            "Write a {level} entry '{message}' to the logger {logger}.",
            "Using {logger}, record the message '{message}' as {level}.",
        ],
    ),
    _method(
        "QueryBuilder.selectColumns",
        "Select some columns of a table, returning at most a number of rows.",
        {
            "table": (string("The table to read."), "table"),
            "columns": (array("Columns to return.", {"type": "string"}), "columns"),
            "limit": (integer("Most rows to return.", minimum=1), "page_size"),
            "orderBy": (string("Column to sort by."), "column"),
        },
        ["table", "columns", "limit"],
        [
            "Help me select {columns} from the table {table}, at most {limit} rows.",
            "Query {table} for the columns {columns}, limit {limit}, ordered by {orderBy}.",
            "Give me {columns} of the first {limit} rows in {table}.",
        ],
    ),
    _method(
        "TokenService.issueToken",
        "Issue an access token for a user with some scopes.",
        {
            "userId": (string("The user's id."), "user_ref_id"),
            "scopes": (array("Granted scopes.", {"type": "string"}), "scopes"),
            "expiresInMinutes": (integer("Lifetime in minutes.", minimum=1), "minutes"),
        },
        ["userId", "scopes", "expiresInMinutes"],
        [
            (
                "Help me issue a token for user {userId} with the scopes {scopes}, valid for"
                " {expiresInMinutes} minutes."
            ),
            (
                "Create an access token for {userId} that grants {scopes} and expires in"
                " {expiresInMinutes} minutes."
            ),
            "Issue {userId} a {expiresInMinutes}-minute token with {scopes} access.",
        ],
    ),
)
