export const id = 536;
export const ids = [536];
export const modules = {

/***/ 6536:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   octokitFor: () => (/* binding */ octokitFor)
/* harmony export */ });
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8803);
/* harmony import */ var _actions_github_lib_utils__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8341);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(3226);
/**
 * The one module that loads Octokit (through @actions/github: proxy support, GHES base URLs).
 * Imported only dynamically, when a run asks for a comment or a deployment.
 */



const silent = { debug: () => { }, info: () => { }, warn: () => { }, error: () => { } };
/** An Octokit for `apiUrl` whose every request is aborted by `signal`; a request cut short that way fails
 * with GitHubTimeout, whatever stage it was in. It logs nothing itself. `fetch`: how its requests go out
 * (tests: an in-process GitHub); @actions/github's proxy-aware one by default. */
function octokitFor(token, apiUrl, signal, fetch) {
    const octokit = (0,_actions_github__WEBPACK_IMPORTED_MODULE_0__/* .getOctokit */ .Q)(token, {
        baseUrl: apiUrl.replace(/\/+$/, ''),
        log: silent,
        // Keep @actions/github's proxy-aware fetch and agent: `request` replaces its defaults whole.
        request: { ..._actions_github_lib_utils__WEBPACK_IMPORTED_MODULE_1__/* .defaults */ .NT.request, ...(fetch ? { fetch } : {}), ...(signal ? { signal } : {}) },
    });
    octokit.hook.wrap('request', async (request, options) => {
        try {
            return await request(options);
        }
        catch (e) {
            if (signal?.aborted)
                throw new _errors_js__WEBPACK_IMPORTED_MODULE_2__/* .GitHubTimeout */ .rn();
            throw e;
        }
    });
    return octokit;
}


/***/ })

};
