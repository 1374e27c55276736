"""`{{ text|rule_links }}`: rule citations (C-6.2, W-7.1, "C-5.2, C-5.3") in text become links to the rules.

The text is escaped first and the links are put into the escaped text, so a message that carries markup
shows it as text; only numbers of rules that exist (in the English rules file) are linked.
"""

import re

from django import template
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe

from frontend.rules import RULE_NUMBER, known_rule, rules_url

register = template.Library()


@register.filter(is_safe=False)
def rule_links(value: object) -> SafeString:
    # Escaped even under {% autoescape off %}: the links are put into this text, so it must hold no markup
    # but ours. Text already marked safe (SafeString) is kept as it is.
    text = conditional_escape(value if isinstance(value, str) else str(value))

    def link(match: re.Match[str]) -> str:
        number = match.group(0)
        game = known_rule(number)
        if game is None:
            return number
        return f'<a class="rule-ref" href="{escape(rules_url(game, number))}">{number}</a>'

    return mark_safe(RULE_NUMBER.sub(link, str(text)))  # the text was escaped above
