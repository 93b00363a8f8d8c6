// Swagger UI over this server's own document. A file of its own: the page's policy allows no inline script.
window.addEventListener('load', () => {
    window.ui = SwaggerUIBundle({
        url: '/openapi',
        dom_id: '#swagger-ui',
        deepLinking: true,
        // the document never leaves the server: no call to Swagger's public validator
        validatorUrl: null,
        // "Try it out" calls this origin with the browser's session cookie; a bearer token goes in "Authorize"
        withCredentials: true,
        persistAuthorization: false,
    });
});
