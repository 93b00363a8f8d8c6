package dev.atrium.marketplace.control.submission;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;

/** The one {@link CardValidator} of the application: its schemas are compiled once. */
@ApplicationScoped
public class CardValidation {

    private CardValidator validator;

    @PostConstruct
    public void compile() {
        validator = new CardValidator();
    }

    public CardValidator validator() {
        return validator;
    }

    public String schemaText() {
        return CardValidator.schemaText();
    }
}
