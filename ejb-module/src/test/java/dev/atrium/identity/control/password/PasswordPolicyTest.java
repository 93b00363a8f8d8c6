package dev.atrium.identity.control.password;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

class PasswordPolicyTest {

    @Test
    void whenPasswordHasEightCharactersAnUpperCaseLetterAndADigitThenAccepted() {
        assertThatCode(() -> PasswordPolicy.check("Abcdefg1")).doesNotThrowAnyException();
    }

    @Test
    void whenPasswordIsTooShortThenValidationNamesTheRule() {
        assertThatThrownBy(() -> PasswordPolicy.check("Abcdef1"))
                .isInstanceOfSatisfying(BusinessException.class, e -> {
                    org.assertj.core.api.Assertions.assertThat(e.problem()).isEqualTo(Problem.VALIDATION);
                    org.assertj.core.api.Assertions.assertThat(e.details()).contains("at least 8 characters");
                });
    }

    @Test
    void whenPasswordLacksUpperCaseOrDigitThenEachMissingRuleIsNamed() {
        assertThatThrownBy(() -> PasswordPolicy.check("abcdefgh"))
                .isInstanceOf(BusinessException.class)
                .satisfies(e -> org.assertj.core.api.Assertions.assertThat(((BusinessException) e).details())
                        .contains("one upper-case letter").contains("one digit"));
    }

    @Test
    void whenPasswordIsNullThenRejected() {
        assertThatThrownBy(() -> PasswordPolicy.check(null)).isInstanceOf(BusinessException.class);
    }

    @Test
    void whenPasswordIsAbsurdlyLongThenRejected() {
        assertThatThrownBy(() -> PasswordPolicy.check("A1" + "x".repeat(300))).isInstanceOf(BusinessException.class);
    }
}
